import type { SwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config.js';

/** The OpenAPI 3.1 document is generated from the route schemas; this is only its frame. */
export function openApiOptions(config: Config): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Paydesk merchant API',
        version: config.version,
        description:
          'Create crypto payment invoices from your backend, list them and fetch one. ' +
          'An invoice offers every payment method its project accepts (a token on a network: `payment_methods`, ' +
          'each with its address and the amount still due) and lists every payment seen (`payments`). ' +
          'Every response is a JSON envelope with a trace_id. Fulfil an order only when its invoice is `paid`.',
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'Paydesk' },
      },
      servers: [{ url: config.publicBaseUrl, description: 'This Paydesk instance' }],
      tags: [
        { name: 'Health', description: 'Liveness of the service and its database' },
        { name: 'Merchant', description: 'The API key in use and its project' },
        { name: 'Invoices', description: 'Payment requests and their status' },
        {
          name: 'Refunds',
          description: "Giving money back: claim links, the payer's address, confirmation on chain",
        },
        {
          name: 'Payment links',
          description: 'A page to share where a payer makes an invoice by pressing "Pay" (docs/links.md)',
        },
        { name: 'Admin', description: 'The operator API, enabled by PAYDESK_ADMIN_TOKEN' },
        {
          name: 'Dashboard',
          description:
            'JSON calls of the merchant dashboard (/dashboard): a signed-in session cookie and its X-CSRF-Token',
        },
        {
          name: 'Sandbox',
          description: 'Operator calls that pay sandbox invoices by hand, through the real payment path',
        },
      ],
      components: {
        securitySchemes: {
          merchantKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'A secret API key of a project, svc_secret_…, issued by the operator',
          },
          dashboardSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'paydesk_session',
            description: 'The dashboard session of a signed-in user; state changes also need X-CSRF-Token',
          },
          adminToken: {
            type: 'http',
            scheme: 'bearer',
            description: "The operator's PAYDESK_ADMIN_TOKEN; without it the admin API answers 404",
          },
        },
      },
      security: [{ merchantKey: [] }],
    },
    // Everything under /v1/admin is guarded by the operator's token (one hook in src/admin), not by a
    // merchant key; saying so here keeps every admin route, present and future, documented alike.
    transform: ({ schema, url }) => ({
      schema:
        url.startsWith('/v1/admin/') && schema
          ? { ...schema, security: [{ adminToken: [] }] }
          : url.startsWith('/dashboard/api/') && schema
            ? { ...schema, security: [{ dashboardSession: [] }] }
            : schema,
      url,
    }),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  };
}
