import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { toBranding } from '../branding/branding.js';
import { getBranding } from '../branding/service.js';
import { ok } from '../http/envelope.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { errorResponses, StringEnum, Success } from '../http/schemas.js';
import * as merchants from '../merchants/service.js';
import { MAX_METHODS, methodKey } from '../networks/methods.js';
import { previewAddresses } from '../networks/preview.js';
import { change } from './actor.js';
import type { DashboardContext } from './context.js';
import { validationMessages } from './errors.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { inFormTerms, previewsOf, settingsChanges } from './settings.form.js';
import { type SettingsForm, settingsPage } from './views/settings.js';

const hide = true;

/** The Settings form as the project stands. */
export function currentForm(p: DashboardContext['project']): SettingsForm {
  return {
    name: p.name,
    ttl_minutes: String(Math.round(p.invoice_ttl_seconds / 60)),
    currency: p.currency,
    payment_methods: p.payment_methods.map(methodKey),
    // "1.50" is shown as 1.5, and "0.00" as 0.
    underpayment_tolerance_percent: String(Number(p.underpayment_tolerance_percent)),
    evm_xpub: p.evm_xpub ?? '',
    tron_xpub: p.tron_xpub ?? '',
    payout_address: p.payout_address ?? '',
    solana_address: p.solana_address ?? '',
  };
}

export async function brandingOf(app: FastifyInstance, projectId: string) {
  return toBranding(await getBranding(app.db, projectId), app.config.publicBaseUrl);
}

const Text = (maxLength: number) => Type.String({ maxLength });
const SettingsBody = Type.Object(
  {
    _csrf: Text(100),
    name: Text(1000),
    ttl_minutes: Text(20),
    currency: Text(10),
    // Absent when none is ticked; one string when one is; a list when several are.
    payment_methods: Type.Optional(
      Type.Union([Text(60), Type.Array(Text(60), { maxItems: 4 * MAX_METHODS })]),
    ),
    underpayment_tolerance_percent: Text(40),
    evm_xpub: Type.Optional(Text(1000)),
    tron_xpub: Type.Optional(Text(1000)),
    payout_address: Type.Optional(Text(200)),
    solana_address: Type.Optional(Text(200)),
    intent: Type.Optional(StringEnum(['preview', 'save'])),
  },
  { additionalProperties: false },
);
type SettingsBody = Static<typeof SettingsBody>;

function formOf(body: Omit<SettingsBody, '_csrf' | 'intent'>): SettingsForm {
  return {
    ...body,
    payment_methods: [body.payment_methods ?? []].flat(),
    evm_xpub: body.evm_xpub ?? '',
    tron_xpub: body.tron_xpub ?? '',
    payout_address: body.payout_address ?? '',
    solana_address: body.solana_address ?? '',
  };
}

/** Settings (owners only): the project's name, lifetime and payment settings, via updateProject. */
export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';
  const networks = app.config.networks;
  app.addHook('preValidation', async (request) => requireOwner(request.dashboard));

  app.get(
    '/settings',
    { schema: { hide, querystring: Type.Object({ saved: Type.Optional(Type.String({ maxLength: 10 })) }) } },
    async (request, reply) => {
      const ctx = request.dashboard;
      const form = currentForm(ctx.project);
      return reply.type(html).send(
        settingsPage(ctx, { ...app.config, watching: app.watching }, form, {
          previews: previewsOf(networks, form).previews,
          notice: request.query.saved ? 'Settings saved.' : undefined,
          branding: await brandingOf(app, ctx.project.id),
        }),
      );
    },
  );

  app.post('/settings', { schema: { hide, body: SettingsBody } }, async (request, reply) => {
    const ctx = request.dashboard;
    const { _csrf, intent, ...body } = request.body;
    const form = formOf(body);
    const page = async (status: number, opts: Parameters<typeof settingsPage>[3]) =>
      reply
        .code(status)
        .type(html)
        .send(
          settingsPage(ctx, { ...app.config, watching: app.watching }, form, {
            ...opts,
            branding: await brandingOf(app, ctx.project.id),
          }),
        );
    if (intent === 'preview') {
      const { previews, errors } = previewsOf(networks, form);
      if (errors.length > 0) return page(422, { errors: validationMessages(ApiError.validation(errors)) });
      return page(200, { previews });
    }
    let changes: merchants.ProjectChanges | undefined;
    try {
      changes = settingsChanges(app, form, ctx.project);
      // The same function as PATCH /v1/admin/projects/{id}: one set of rules for the payment settings.
      await merchants.updateProject(app.db, app.config, ctx.project.id, changes, change(ctx, app.clock()));
      return reply.redirect(`${ROOT}/settings?saved=1`, 303);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
      // The service's own refusals (a token a network lacks, a key a method needs) in the form's terms.
      const refused = changes
        ? ApiError.validation(
            inFormTerms(networks, (err.details.errors as FieldError[]) ?? [], changes.payment_methods ?? []),
          )
        : err;
      return page(422, { errors: validationMessages(refused) });
    }
  });

  // The live preview dashboard.js asks for as the merchant types: JSON, in the contract's envelopes.
  app.post(
    '/api/deposit-addresses/preview',
    {
      schema: {
        operationId: 'dashboardPreviewDepositAddresses',
        summary: 'The first three deposit addresses an xpub gives on a network (nothing is stored)',
        tags: ['Dashboard'],
        body: Type.Object(
          {
            network: Type.String({ pattern: '^[a-z0-9-]{1,32}$' }),
            xpub: Type.String({ minLength: 1, maxLength: 200 }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Success(
            Type.Object({
              network: Type.String(),
              addresses: Type.Array(Type.Object({ index: Type.Integer(), address: Type.String() })),
            }),
            'The addresses at 0/0, 0/1 and 0/2',
          ),
          ...errorResponses(401, 404, 405, 422, 429, 500),
        },
      },
    },
    async (request) => {
      const { network, xpub } = request.body;
      return ok(
        request,
        'Deposit addresses derived',
        previewAddresses(networks, { network, xpub: xpub.trim(), count: 3 }),
      );
    },
  );
};
