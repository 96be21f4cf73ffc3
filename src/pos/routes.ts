import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiate, type Translator, translator } from '../checkout/i18n/i18n.js';
import { loadCheckout } from '../checkout/service.js';
import { ok } from '../http/envelope.js';
import { ApiError } from '../http/errors.js';
import { enforce, type Limit } from '../http/rate-limit.js';
import { sendImmutable } from '../web/assets.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { posAssets } from './assets.js';
import { priceCart } from './charge.js';
import { posErrors, sendPosMessage } from './errors.js';
import { acceptTillForms, list } from './form.js';
import { keypadPage, shown } from './keypad.view.js';
import { langQuery, posRoot } from './layout.js';
import { lockPage } from './lock.view.js';
import { salePage } from './sale.view.js';
import { chargeTill, findTillSale, openTill, tillOfSession, unlockTill } from './service.js';
import { readTillCookie, tillCookie } from './session.js';

/** Per client address over every /pos request: a busy counter makes a few a minute. */
export const POS_LIMIT: Limit = { max: 120, windowMs: 60_000 };
const hide = true;
const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });
const SaleParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  invoice: Type.String({ maxLength: 64 }),
});
const Lang = Type.Object({ lang: Type.Optional(Type.Unknown()) });
const Cart = Type.Object(
  {
    amount: Type.Optional(Type.String({ maxLength: 20 })),
    qty: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 3 }),
        Type.Array(Type.String({ maxLength: 3 }), { maxItems: 50 }),
      ]),
    ),
  },
  { additionalProperties: false },
);

const trOf = (request: FastifyRequest<{ Querystring: { lang?: unknown } }>): Translator =>
  translator(
    negotiate(
      request.headers['accept-language'],
      typeof request.query.lang === 'string' ? request.query.lang : undefined,
    ),
  );

/** The point of sale (contract §25) under /pos: a till opened by its PIN, no dashboard session. */
export const posRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const assets = posAssets();
  const secure = app.config.publicBaseUrl.startsWith('https:');
  acceptTillForms(app);
  app.addHook('onRequest', async (request, reply) => {
    setSecurityHeaders(reply);
    noStore(reply);
    await enforce(app.limiter, reply, `pos:${request.ip}`, POS_LIMIT, app.clock().getTime());
  });
  app.setErrorHandler(posErrors);
  const send = (reply: FastifyReply, tr: Translator, page: string, status = 200) =>
    reply.code(status).header('Content-Language', tr.lang).type('text/html; charset=utf-8').send(page);
  /** The till of a request with its own session cookie; otherwise the PIN page is the answer. */
  const session = async (request: FastifyRequest<{ Params: { id: string } }>) =>
    tillOfSession(app.db, request.params.id, readTillCookie(request), app.clock());
  // SameSite=Strict keeps the cookie off cross-site posts; a browser that says cross-site is refused too.
  const crossSite = (request: FastifyRequest) => request.headers['sec-fetch-site'] === 'cross-site';

  app.get(
    '/assets/:name',
    { schema: { hide, params: Type.Object({ name: Type.String({ maxLength: 100 }) }) } },
    async (request, reply) => {
      const asset = assets.byName.get(request.params.name);
      if (!asset) throw ApiError.notFound('No such file');
      return sendImmutable(request, reply, asset);
    },
  );

  app.get('/:id', { schema: { hide, params: Id, querystring: Lang } }, async (request, reply) => {
    const tr = trOf(request);
    const root = posRoot(request.url);
    const till = await session(request);
    if (till) return send(reply, tr, keypadPage(root, till, tr));
    return send(reply, tr, lockPage(root, await openTill(app.db, request.params.id), tr));
  });

  app.post(
    '/:id/unlock',
    {
      schema: {
        hide,
        params: Id,
        querystring: Lang,
        body: Type.Object({ pin: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      if (crossSite(request)) return sendPosMessage(request, reply, 403, 'forbidden');
      const tr = trOf(request);
      const root = posRoot(request.url);
      const till = await openTill(app.db, request.params.id);
      const now = app.clock();
      try {
        const result = await unlockTill(app.db, till, request.ip, request.body.pin, now);
        if (!result.ok)
          return send(
            reply,
            tr,
            lockPage(root, till, tr, { kind: 'wrong', remaining: result.remaining }),
            401,
          );
        reply.header('Set-Cookie', tillCookie(till.id, result.cookie, secure));
        return reply.redirect(`${root}${till.id}${langQuery(tr)}`, 303);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'RATE_LIMITED') throw err;
        reply.headers(err.headers);
        const minutes = Math.ceil(Number(err.details.retry_after_seconds) / 60);
        return send(reply, tr, lockPage(root, till, tr, { kind: 'locked', minutes }), 429);
      }
    },
  );

  app.post('/:id/lock', { schema: { hide, params: Id, querystring: Lang } }, async (request, reply) => {
    const tr = trOf(request);
    // Only a till's own id goes into the cookie's path (an id of any bytes is the till's 404).
    const till = await openTill(app.db, request.params.id);
    reply.header('Set-Cookie', tillCookie(till.id, '', secure, true));
    return reply.redirect(`${posRoot(request.url)}${till.id}${langQuery(tr)}`, 303);
  });

  app.post('/:id/quote', { schema: { hide, params: Id, querystring: Lang, body: Cart } }, async (request) => {
    const till = await session(request);
    // Without the till's own session: the same 404 as an unknown till, in the envelope pos.js reads.
    if (!till) throw ApiError.notFound('This till does not exist or is disabled');
    const tr = trOf(request);
    const sale = priceCart(till, { amount: request.body.amount ?? '', quantities: list(request.body.qty) });
    return ok(request, 'Totals', {
      subtotal: shown(tr, sale.subtotal, till.currency),
      tax: shown(tr, sale.tax, till.currency),
      total: shown(tr, sale.total, till.currency),
    });
  });

  app.post(
    '/:id/charge',
    { schema: { hide, params: Id, querystring: Lang, body: Cart } },
    async (request, reply) => {
      if (crossSite(request)) return sendPosMessage(request, reply, 403, 'forbidden');
      const tr = trOf(request);
      const root = posRoot(request.url);
      const till = await session(request);
      if (!till) return send(reply, tr, lockPage(root, await openTill(app.db, request.params.id), tr), 401);
      const cart = { amount: request.body.amount ?? '', quantities: list(request.body.qty) };
      const { invoice } = await chargeTill(app.db, till, cart, {
        now: app.clock(),
        publicBaseUrl: app.config.publicBaseUrl,
        networks: app.config.networks,
        rates: app.rates,
        dustPercent: app.config.dustPercent,
        watching: app.watching,
      });
      return reply.redirect(`${root}${till.id}/sales/${invoice.id}${langQuery(tr)}`, 303);
    },
  );

  app.get(
    '/:id/sales/:invoice',
    { schema: { hide, params: SaleParams, querystring: Lang } },
    async (request, reply) => {
      const tr = trOf(request);
      const root = posRoot(request.url);
      const till = await session(request);
      if (!till) return send(reply, tr, lockPage(root, await openTill(app.db, request.params.id), tr), 401);
      const sale = await findTillSale(app.db, till.id, request.params.invoice);
      const checkout = await loadCheckout(app.db, app.config.networks, sale.id, app.clock());
      return send(reply, tr, salePage(root, till.id, checkout, tr));
    },
  );

  app.get('/*', { schema: { hide } }, async () => {
    throw ApiError.notFound();
  });
};
