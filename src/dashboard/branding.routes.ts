import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Change } from '../audit/audit.js';
import { MAX_LOGO_BYTES } from '../branding/logo.js';
import * as branding from '../branding/service.js';
import { ApiError } from '../http/errors.js';
import { change } from './actor.js';
import { validationMessages } from './errors.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { brandingOf, currentForm } from './settings.routes.js';
import { settingsPage } from './views/settings.js';

const hide = true;
/** The uploaded file of the logo form, kept under a symbol so the text checks of http/input.ts skip its bytes. */
const UPLOAD = Symbol('upload');
/** The logo and the form's few text fields. */
const LOGO_FORM_LIMIT = MAX_LOGO_BYTES + 8 * 1024;

type Upload = { type: string; bytes: Buffer } | undefined;

const refused = (message: string) =>
  ApiError.validation([{ in: 'body', field: 'logo', rule: 'invalid', message }]);

/**
 * The payment page's branding on the Settings page (owners only): the same service functions as the
 * admin API's /projects/{id}/branding and /logo, so one set of rules for colours and images.
 */
export const brandingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preValidation', async (request) => requireOwner(request.dashboard));

  // Only this scope reads multipart forms, and only as far as one logo. Parsing comes before the
  // guard's preValidation, so the CSRF token in the form is checked as for any other post.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: LOGO_FORM_LIMIT },
    async (request: FastifyRequest, body: Buffer) => {
      let form: FormData;
      try {
        const headers = { 'content-type': String(request.headers['content-type']) };
        form = await new Response(body, { headers }).formData();
      } catch {
        throw refused('The form could not be read');
      }
      const csrf = form.get('_csrf');
      const once = form.get('_once');
      const file = form.get('logo');
      const upload: Upload =
        file instanceof Blob && file.size > 0
          ? { type: file.type, bytes: Buffer.from(await file.arrayBuffer()) }
          : undefined;
      return {
        _csrf: typeof csrf === 'string' ? csrf : '',
        ...(typeof once === 'string' ? { _once: once } : {}),
        [UPLOAD]: upload,
      };
    },
  );
  app.setErrorHandler((err: FastifyError, _request: FastifyRequest, _reply: FastifyReply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      throw refused(`The logo is larger than ${MAX_LOGO_BYTES / 1024} KiB`);
    throw err;
  });

  /** Runs a change (audited by the service) and returns to Settings; a refusal shows Settings with its messages. */
  const changeBranding = async (
    request: FastifyRequest,
    reply: FastifyReply,
    run: (by: Change) => Promise<unknown>,
  ) => {
    const ctx = request.dashboard;
    try {
      await run(change(ctx, app.clock()));
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
      const page = settingsPage(ctx, { ...app.config, watching: app.watching }, currentForm(ctx.project), {
        branding: await brandingOf(app, ctx.project.id),
        brandingErrors: validationMessages(err),
      });
      return reply.code(422).type('text/html; charset=utf-8').send(page);
    }
    return reply.redirect(`${ROOT}/settings?saved=1`, 303);
  };

  app.post(
    '/settings/branding',
    {
      schema: {
        hide,
        body: Type.Object(
          { _csrf: Type.String({ maxLength: 100 }), brand_color: Type.String({ maxLength: 100 }) },
          { additionalProperties: false },
        ),
      },
    },
    (request, reply) => {
      const color = request.body.brand_color.trim();
      return changeBranding(request, reply, (by) =>
        branding.setBrandColor(app.db, request.dashboard.project.id, color === '' ? null : color, by),
      );
    },
  );

  app.post('/settings/logo', { schema: { hide } }, (request, reply) => {
    const upload = (request.body as { [UPLOAD]?: Upload } | undefined)?.[UPLOAD];
    return changeBranding(request, reply, async (by) => {
      if (!upload) throw refused('Choose a PNG file to upload');
      // The browser names the type from the file's extension; the bytes are what the service checks.
      if (upload.type !== 'image/png') throw refused('The logo must be a PNG file');
      const file = { contentType: upload.type, body: upload.bytes };
      return branding.uploadLogo(app.db, request.dashboard.project.id, file, by);
    });
  });

  app.post('/settings/logo/remove', { schema: { hide } }, (request, reply) => {
    return changeBranding(request, reply, (by) =>
      branding.removeLogo(app.db, request.dashboard.project.id, by),
    );
  });
};
