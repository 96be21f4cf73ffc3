import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { toBranding } from '../branding/branding.js';
import { getBranding } from '../branding/service.js';
import { ok } from '../http/envelope.js';
import { ApiError } from '../http/errors.js';
import { errorResponses, StringEnum, Success } from '../http/schemas.js';
import * as merchants from '../merchants/service.js';
import { previewAddresses } from '../networks/preview.js';
import { change } from './actor.js';
import type { DashboardContext } from './context.js';
import { validationMessages } from './errors.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { settingsChanges } from './settings.form.js';
import { type SettingsForm, settingsPage } from './views/settings.js';

const hide = true;

/** The Settings form as the project stands. */
export function currentForm(p: DashboardContext['project']): SettingsForm {
  return {
    name: p.name,
    ttl_minutes: String(Math.round(p.invoice_ttl_seconds / 60)),
    network: p.network,
    currency: p.currency,
    xpub: p.xpub ?? '',
  };
}

export async function brandingOf(app: FastifyInstance, projectId: string) {
  return toBranding(await getBranding(app.db, projectId), app.config.publicBaseUrl);
}
const SettingsBody = Type.Object(
  {
    _csrf: Type.String({ maxLength: 100 }),
    name: Type.String({ maxLength: 1000 }),
    ttl_minutes: Type.String({ maxLength: 20 }),
    network: Type.String({ maxLength: 40 }),
    currency: Type.String({ maxLength: 10 }),
    xpub: Type.String({ maxLength: 1000 }),
    intent: Type.Optional(StringEnum(['preview', 'save'])),
  },
  { additionalProperties: false },
);

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
      const p = ctx.project;
      const preview = p.xpub ? safePreview(p.network, p.xpub) : undefined;
      return reply.type(html).send(
        settingsPage(ctx, networks, currentForm(p), {
          preview,
          notice: request.query.saved ? 'Settings saved.' : undefined,
          branding: await brandingOf(app, p.id),
        }),
      );
    },
  );

  const safePreview = (network: string, xpub: string) => {
    try {
      return previewAddresses(networks, { network, xpub, count: 3 });
    } catch {
      return undefined;
    }
  };

  app.post('/settings', { schema: { hide, body: SettingsBody } }, async (request, reply) => {
    const ctx = request.dashboard;
    const { _csrf, intent, ...form } = request.body;
    const xpub = form.xpub.trim();
    try {
      if (intent === 'preview') {
        const preview = previewAddresses(networks, { network: form.network, xpub, count: 3 });
        const branding = await brandingOf(app, ctx.project.id);
        return reply.type(html).send(settingsPage(ctx, networks, form, { preview, branding }));
      }
      const now = app.clock();
      const changes = settingsChanges(app, form);
      // The same function as PATCH /v1/admin/projects/{id}: one set of rules for the payment settings.
      await merchants.updateProject(app.db, networks, ctx.project.id, changes, change(ctx, now));
      return reply.redirect(`${ROOT}/settings?saved=1`, 303);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
      return reply
        .code(422)
        .type(html)
        .send(
          settingsPage(ctx, networks, form, {
            errors: validationMessages(err),
            branding: await brandingOf(app, ctx.project.id),
          }),
        );
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
