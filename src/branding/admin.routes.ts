import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { byOperator } from '../audit/audit.js';
import { ok } from '../http/envelope.js';
import { ApiError } from '../http/errors.js';
import { errorResponses, nullable, PathId, Success } from '../http/schemas.js';
import { BrandingSchema, toBranding } from './branding.js';
import { MAX_LOGO_BYTES, MAX_LOGO_SIDE } from './logo.js';
import * as service from './service.js';

const ProjectParams = Type.Object({ id: PathId('prj', 'No project with this id', 'The project id, prj_…') });
const BrandingRef = Type.Ref(BrandingSchema);
const ADMIN_ERRORS = errorResponses(401, 404, 405, 422, 429, 500);
const tags = ['Admin'];

const BrandingBody = Type.Object(
  {
    brand_color: nullable(
      Type.String({
        pattern: '^#[0-9A-Fa-f]{6}$',
        description:
          "A hex colour (#rrggbb) for the payment page's main buttons, or null for Paydesk's own. It must contrast at least 3:1 with the page in its light and dark schemes; the text on it is derived (black or white, at least 4.5:1).",
        examples: ['#635bff'],
      }),
    ),
  },
  { additionalProperties: false },
);

/** The logo route reads its body raw: no schema validation of it (a Buffer), the service decides. */
const rawBody = ({ httpPart }: { httpPart?: string }) =>
  httpPart === 'body' ? (data: unknown) => Buffer.isBuffer(data) : () => true;

/** A project's branding on the payment page, for the operator (the dashboard calls the same service), under /v1/admin. */
export const brandingAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const branding = (row: Awaited<ReturnType<typeof service.getBranding>>) =>
    toBranding(row, app.config.publicBaseUrl);

  app.get(
    '/projects/:id/branding',
    {
      schema: {
        operationId: 'adminGetBranding',
        summary: "A project's payment page branding",
        tags,
        params: ProjectParams,
        response: { 200: Success(BrandingRef, 'The branding'), ...ADMIN_ERRORS },
      },
    },
    async (request) =>
      ok(request, 'Branding', branding(await service.getBranding(app.db, request.params.id))),
  );

  app.patch(
    '/projects/:id/branding',
    {
      schema: {
        operationId: 'adminUpdateBranding',
        summary: 'Set or remove the brand colour',
        tags,
        params: ProjectParams,
        body: BrandingBody,
        response: { 200: Success(BrandingRef, 'The branding'), ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const row = await service.setBrandColor(
        app.db,
        request.params.id,
        request.body.brand_color,
        byOperator(app.clock()),
      );
      return ok(request, 'Branding updated', branding(row));
    },
  );

  await app.register(async (scope) => {
    const upload = scope.withTypeProvider<TypeBoxTypeProvider>();
    // Only this route takes a non-JSON body: any type is read (up to the limit) and the service checks
    // both the Content-Type and the bytes, so a refusal always says what was wrong.
    upload.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    upload.setErrorHandler((err: FastifyError, _request: FastifyRequest, _reply: FastifyReply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw ApiError.validation([
          {
            in: 'body',
            field: 'body',
            rule: 'too_large',
            message: `The logo is larger than ${MAX_LOGO_BYTES / 1024} KiB`,
          },
        ]);
      }
      throw err;
    });
    upload.put(
      '/projects/:id/logo',
      {
        bodyLimit: MAX_LOGO_BYTES,
        validatorCompiler: rawBody,
        schema: {
          operationId: 'adminUploadLogo',
          summary: 'Upload the logo',
          description: `The raw PNG as the body (Content-Type: image/png), at most ${MAX_LOGO_BYTES / 1024} KiB and ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} pixels. It is decoded and re-encoded: only its pixels are kept, and it is served from our origin under a URL of its own.`,
          tags,
          consumes: ['image/png'],
          params: ProjectParams,
          body: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }),
          response: { 200: Success(BrandingRef, 'The branding, with the new logo_url'), ...ADMIN_ERRORS },
        },
      },
      async (request) => {
        const upload = { contentType: request.headers['content-type'], body: request.body };
        const row = await service.uploadLogo(app.db, request.params.id, upload, byOperator(app.clock()));
        return ok(request, 'Logo uploaded', branding(row));
      },
    );
  });

  app.delete(
    '/projects/:id/logo',
    {
      schema: {
        operationId: 'adminDeleteLogo',
        summary: 'Remove the logo',
        tags,
        params: ProjectParams,
        response: { 200: Success(BrandingRef, 'The branding'), ...ADMIN_ERRORS },
      },
    },
    async (request) =>
      ok(
        request,
        'Logo removed',
        branding(await service.removeLogo(app.db, request.params.id, byOperator(app.clock()))),
      ),
  );
};
