import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderErrors } from '../http/error-handler.js';
import { ApiError } from '../http/errors.js';
import { enforce, type Limit } from '../http/rate-limit.js';
import { claimRefund, loadClaim } from '../refunds/claim.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { type Language, negotiate, translator } from './i18n/i18n.js';
import { messagePage } from './layout.js';
import { claimNotFoundPage, claimPage } from './refund-page.js';

/** Per client address, as the payment page: a person fills in one form, a script guessing tokens gets little. */
export const CLAIM_LIMIT: Limit = { max: 60, windowMs: 60_000 };

const Params = Type.Object({ token: Type.String() });
const Query = Type.Object({ lang: Type.Optional(Type.Unknown()) });
// The form's two fields; anything else a browser adds is ignored, not refused (a page for people).
const Body = Type.Object({ method: Type.Optional(Type.Unknown()), address: Type.Optional(Type.Unknown()) });
const one = (value: unknown) => (typeof value === 'string' ? value : undefined);
const hide = true;

/** The relative path from /refund/… to /pay/, where the payment page's assets are served. */
export function refundRoot(url: string): string {
  const path = url.split('?')[0] as string;
  const depth = path.split('/').length - 2; // "/refund/<token>" → 1
  return `${'../'.repeat(Math.max(depth, 1))}pay/`;
}

function languageOf(request: FastifyRequest): Language {
  const query = request.query as { lang?: unknown } | undefined;
  return negotiate(request.headers['accept-language'], one(query?.lang));
}

function sendHtml(reply: FastifyReply, status: number, lang: Language, body: string) {
  noStore(reply);
  return reply
    .code(status)
    .header('Vary', 'Accept-Language')
    .header('Content-Language', lang)
    .type('text/html; charset=utf-8')
    .send(body);
}

/** Every error of these routes is a page in the payer's language, never JSON. */
const claimErrors = renderErrors((request, reply, err) => {
  const tr = translator(languageOf(request));
  const root = refundRoot(request.url);
  setSecurityHeaders(reply);
  reply.headers(err.headers);
  if (err.code === 'RATE_LIMITED') {
    const seconds = String(reply.getHeader('Retry-After') ?? '60');
    const page = messagePage(
      root,
      tr,
      tr.t('message.rateLimited.heading'),
      tr.t('message.rateLimited.text', { seconds }),
    );
    return sendHtml(reply, 429, tr.lang, page);
  }
  if (err.statusCode < 500) return sendHtml(reply, 404, tr.lang, claimNotFoundPage(root, tr));
  const page = messagePage(root, tr, tr.t('message.error.heading'), tr.t('message.error.text'));
  return sendHtml(reply, err.statusCode, tr.lang, page);
});

/**
 * The payer's refund claim page (contract §18), under /refund: public, the token in the URL is the
 * only key. It is a view of the payment page's surface (layout, assets, languages) over the refunds
 * feature's service; the rules (one use, the methods, the address check) live in src/refunds.
 */
export const refundClaimRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limit = async (request: FastifyRequest, reply: FastifyReply) =>
    enforce(app.limiter, reply, `refund:${request.ip}`, CLAIM_LIMIT, app.clock().getTime());
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.addHook('onRequest', async (_request, reply) => setSecurityHeaders(reply));
  app.setErrorHandler(claimErrors);

  app.get(
    '/:token',
    { schema: { hide, params: Params, querystring: Query }, onRequest: limit, exposeHeadRoute: true },
    async (request, reply) => {
      const tr = translator(languageOf(request));
      const root = refundRoot(request.url);
      const refund = await loadClaim(app.db, app.config.networks, request.params.token);
      // A canceled refund's link opens nothing, like an unknown one.
      if (!refund || refund.status === 'canceled')
        return sendHtml(reply, 404, tr.lang, claimNotFoundPage(root, tr));
      return sendHtml(reply, 200, tr.lang, claimPage({ refund, root, tr, networks: app.config.networks }));
    },
  );

  app.post(
    '/:token',
    { schema: { hide, params: Params, querystring: Query, body: Body }, onRequest: limit },
    async (request, reply) => {
      const tr = translator(languageOf(request));
      const root = refundRoot(request.url);
      // No CSRF token: no session or cookie rides on this form; the unguessable token is the key.
      // Refusing what browsers mark cross-site keeps other sites from submitting it for a visitor.
      if (request.headers['sec-fetch-site'] === 'cross-site') throw ApiError.notFound();
      const token = request.params.token;
      const input = { method: one(request.body?.method), address: one(request.body?.address) };
      const ctx = {
        now: app.clock(),
        publicBaseUrl: app.config.publicBaseUrl,
        networks: app.config.networks,
      };
      try {
        const outcome = await claimRefund(app.db, token, input, ctx);
        if (outcome.kind === 'unknown') return sendHtml(reply, 404, tr.lang, claimNotFoundPage(root, tr));
        // Claimed, or used already: POST, redirect, GET; the page then shows the refund's status.
        return reply.redirect(`${token}?lang=${tr.lang}`, 303);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
        const refund = await loadClaim(app.db, app.config.networks, token);
        if (!refund) return sendHtml(reply, 404, tr.lang, claimNotFoundPage(root, tr));
        const errors = (err.details.errors ?? []) as Array<{
          in: 'body';
          field: string;
          rule: string;
          message: string;
        }>;
        const page = claimPage({
          refund,
          root,
          tr,
          networks: app.config.networks,
          form: { ...input, errors },
        });
        return sendHtml(reply, 422, tr.lang, page);
      }
    },
  );

  const notFound = async () => {
    throw ApiError.notFound();
  };
  app.get('', { schema: { hide }, onRequest: limit }, notFound);
  app.get('/*', { schema: { hide }, onRequest: limit }, notFound);
};
