import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { logoByName } from '../branding/service.js';
import { AuthorizationBody, SubmittedSchema } from '../gasless/schemas.js';
import { submitAuthorization } from '../gasless/service.js';
import { walletOffer } from '../gasless/wallet.js';
import { ok } from '../http/envelope.js';
import { ApiError } from '../http/errors.js';
import { enforce, type Limit } from '../http/rate-limit.js';
import { errorResponses, Success } from '../http/schemas.js';
import { sendImmutable } from '../web/assets.js';
import { matchesIfNoneMatch } from '../web/etag.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { brandAsset, checkoutAssets } from './assets.js';
import { PublicStatusSchema } from './checkout.js';
import { htmlErrors, sendMessage } from './errors.js';
import { negotiate, translator } from './i18n/i18n.js';
import { pageQuery, payRoot } from './layout.js';
import { checkoutPage } from './page.js';
import { loadCheckout, simulateFromPage } from './service.js';
import { wantsJson, x402Page } from './x402.js';

/**
 * Per client address. A page polls /status every 2 s (30 a minute), so 120 leaves room for a few tabs
 * or payers behind one address; the simulate button needs far fewer.
 */
export const PAGE_LIMIT: Limit = { max: 120, windowMs: 60_000 };
export const SIMULATE_LIMIT: Limit = { max: 10, windowMs: 60_000 };
/** Signed transfers (contract §23): each costs chain reads and may cost the relayer's gas. */
export const AUTHORIZE_LIMIT: Limit = { max: 10, windowMs: 60_000 };
/** Two files cached for a year once loaded; their own, looser limit keeps them off the page's count. */
export const ASSET_LIMIT: Limit = { max: 600, windowMs: 60_000 };

const Params = Type.Object({ id: Type.String() });
// Other parameters (a shop's utm_… on the link) are ignored, not refused: this is a page for people.
// `lang` and `method` are read only when each is one string: a repeated or odd value falls back to
// the browser's language, or to the invoice's default method, rather than failing the page.
const PageQuery = Type.Object({
  lang: Type.Optional(Type.Unknown()),
  method: Type.Optional(Type.Unknown()),
});
const one = (value: unknown) => (typeof value === 'string' ? value : undefined);
const langFrom = (query: { lang?: unknown }) => one(query.lang);
const AssetParams = Type.Object({ name: Type.String() });
const hide = true;

/** The hosted payment page of contract §12, under /pay; public, no authentication. */
export const checkoutRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const assets = checkoutAssets();
  const gasless = { db: app.db, networks: app.config.networks, relayerKey: app.config.relayerKey };
  const limited = (prefix: string, limit: Limit) => async (request: FastifyRequest, reply: FastifyReply) =>
    enforce(app.limiter, reply, `${prefix}:${request.ip}`, limit, app.clock().getTime());
  const pageLimit = limited('pay', PAGE_LIMIT);
  // The simulate form posts an empty urlencoded body; only this plugin accepts that content type.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.addHook('onRequest', async (_request, reply) => setSecurityHeaders(reply));
  app.setErrorHandler(htmlErrors);

  app.get(
    '/:id',
    { schema: { hide, params: Params, querystring: PageQuery }, onRequest: pageLimit, exposeHeadRoute: true },
    async (request, reply) => {
      if (wantsJson(request)) return x402Page(app, gasless, request, reply);
      const { id } = request.params;
      const checkout = await loadCheckout(
        app.db,
        app.config.networks,
        id,
        app.clock(),
        one(request.query.method),
      );
      const tr = translator(negotiate(request.headers['accept-language'], langFrom(request.query)));
      noStore(reply);
      reply.header('Vary', 'Accept-Language').header('Content-Language', tr.lang);
      // The wallet button, when the chosen method can be paid by a signed transfer and the relayer has gas.
      const wallet = checkout.payable
        ? await walletOffer(gasless, id, checkout.method, app.clock()).catch(() => undefined)
        : undefined;
      return reply
        .type('text/html; charset=utf-8')
        .send(checkoutPage(checkout, payRoot(request.url), tr, wallet));
    },
  );

  app.get(
    '/:id/status',
    {
      schema: {
        hide,
        params: Params,
        response: {
          200: Success(PublicStatusSchema, 'What the payment page shows'),
          ...errorResponses(404, 429, 500),
        },
      },
      onRequest: pageLimit,
      exposeHeadRoute: true,
      // Every open payment page asks every 2 s: logged at debug (http/request-log.ts).
      config: { polled: true },
    },
    async (request, reply) => {
      const checkout = await loadCheckout(app.db, app.config.networks, request.params.id, app.clock());
      noStore(reply);
      // The ETag also moves when a payment is seen, which the public fields do not show (see checkout.ts).
      reply.header('ETag', checkout.etag);
      if (matchesIfNoneMatch(request.headers['if-none-match'], checkout.etag)) {
        return (reply as FastifyReply).code(304).send(); // no body, so outside the response schema
      }
      return ok(request, 'Invoice status', checkout.status);
    },
  );

  app.post(
    '/:id/simulate',
    {
      schema: {
        hide,
        params: Params,
        querystring: PageQuery,
        body: Type.Optional(Type.Object({}, { additionalProperties: false })),
      },
      onRequest: limited('pay-simulate', SIMULATE_LIMIT),
    },
    async (request, reply) => {
      // No CSRF token: there is no session or cookie to ride on, and anyone holding the unguessable
      // id can post this anyway. Refusing what browsers mark cross-site only keeps other sites from
      // pressing the button for a visitor (docs/payment-page.md).
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        return sendMessage(request, reply, 403, 'forbidden');
      }
      // The page's choice of method travels in the form's URL: the payment is made in its token.
      const method = one(request.query.method);
      await simulateFromPage(
        app.db,
        app.config.networks,
        request.params.id,
        app.clock(),
        app.config.publicBaseUrl,
        method,
      );
      const wanted = langFrom(request.query);
      const query = pageQuery({ method, lang: wanted ? negotiate(undefined, wanted) : undefined });
      return reply.redirect(`${payRoot(request.url)}${request.params.id}${query}`, 303);
    },
  );

  app.post(
    '/:id/authorizations',
    {
      schema: {
        hide,
        params: Params,
        body: AuthorizationBody,
        response: {
          202: Success(SubmittedSchema, 'The transaction that carries it'),
          ...errorResponses(404, 422, 429, 500),
        },
      },
      onRequest: limited('pay-authorize', AUTHORIZE_LIMIT),
    },
    async (request, reply) => {
      const submitted = await submitAuthorization(gasless, request.params.id, request.body, app.clock());
      noStore(reply);
      return reply.code(202).send(ok(request, 'Signed transfer submitted', submitted));
    },
  );

  app.get(
    '/assets/:name',
    {
      schema: { hide, params: AssetParams },
      onRequest: limited('pay-assets', ASSET_LIMIT),
      exposeHeadRoute: true,
    },
    async (request, reply) => {
      const asset = assets.byName.get(request.params.name) ?? brandAsset(request.params.name);
      if (!asset) throw ApiError.notFound('No such file');
      return sendImmutable(request, reply, asset);
    },
  );

  app.get(
    '/logos/:name',
    {
      schema: { hide, params: AssetParams },
      onRequest: limited('pay-assets', ASSET_LIMIT),
      exposeHeadRoute: true,
    },
    async (request, reply) => {
      const logo = await logoByName(app.db, request.params.name);
      if (!logo) throw ApiError.notFound('No such file');
      // The URL is the image's hash: cached for good. Only the re-encoded PNG is ever served, with its
      // exact type, under nosniff (setSecurityHeaders) and the page's CSP (no script runs in it).
      return sendImmutable(request, reply, {
        body: logo.image,
        type: logo.content_type,
        etag: `"${logo.hash}"`,
      });
    },
  );

  // Anything else under /pay is the page's 404, in HTML.
  const notFound = async () => {
    throw ApiError.notFound();
  };
  app.get('', { schema: { hide }, onRequest: pageLimit, exposeHeadRoute: true }, notFound);
  app.get('/*', { schema: { hide }, onRequest: pageLimit, exposeHeadRoute: true }, notFound);
};
