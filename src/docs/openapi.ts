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
          'Every response is a JSON envelope with a trace_id. Fulfil an order only when its invoice is `paid`.',
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'Paydesk' },
      },
      servers: [{ url: config.publicBaseUrl, description: 'This Paydesk instance' }],
      tags: [
        { name: 'Health', description: 'Liveness of the service and its database' },
        { name: 'Merchant', description: 'The API key in use and its project' },
        { name: 'Invoices', description: 'Payment requests and their status' },
        { name: 'Admin', description: 'The operator API, enabled by PAYDESK_ADMIN_TOKEN' },
      ],
      components: {
        securitySchemes: {
          merchantKey: { type: 'http', scheme: 'bearer', description: 'A secret API key, svc_secret_…' },
        },
      },
      security: [{ merchantKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  };
}
