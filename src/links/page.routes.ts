import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { htmlErrors } from '../checkout/errors.js';
import { type Language, negotiate, translator } from '../checkout/i18n/i18n.js';
import { enforce, type Limit } from '../http/rate-limit.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { type LinkPage, linkPage } from './page.js';
import { closedReason, findLinkForPage, type PublicLink, payLink } from './pay.js';
import { formToken, isFormTokenValid } from './token.js';

/** Per client address (contract §21's trusted proxies decide which): views, and posts of "Pay". */
export const LINK_PAGE_LIMIT: Limit = { max: 60, windowMs: 60_000 };
export const LINK_PAY_LIMIT: Limit = { max: 10, windowMs: 60_000 };

const Params = Type.Object({ id: Type.String() });
// A page for people: other parameters and form fields are ignored, not refused.
const PageQuery = Type.Object({ lang: Type.Optional(Type.Unknown()) });
const Form = Type.Optional(Type.Record(Type.String(), Type.Unknown()));
const one = (value: unknown) => (typeof value === 'string' ? value : undefined);
const hide = true;

/** The public payment link page of contract §25, under /l; no authentication. */
export const linkPageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limited = (prefix: string, limit: Limit) => async (request: FastifyRequest, reply: FastifyReply) =>
    enforce(app.limiter, reply, `${prefix}:${request.ip}`, limit, app.clock().getTime());
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 2048 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.addHook('onRequest', async (_request, reply) => setSecurityHeaders(reply));
  app.setErrorHandler(htmlErrors);

  const langOf = (request: FastifyRequest<{ Querystring: { lang?: unknown } }>): Language =>
    negotiate(request.headers['accept-language'], one(request.query.lang));

  const send = (reply: FastifyReply, status: number, page: Omit<LinkPage, 'token'>) => {
    noStore(reply);
    return reply
      .code(status)
      .header('Vary', 'Accept-Language')
      .header('Content-Language', page.tr.lang)
      .header('X-Robots-Tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(linkPage({ ...page, token: formToken(page.link.form_secret, page.link.id, app.clock()) }));
  };

  // A view makes nothing: no invoice, no row, whoever asks (a payer, a crawler, a link preview).
  app.get(
    '/:id',
    {
      schema: { hide, params: Params, querystring: PageQuery },
      onRequest: limited('link', LINK_PAGE_LIMIT),
      exposeHeadRoute: true,
    },
    async (request, reply) => {
      const link = await findLinkForPage(app.db, request.params.id);
      const tr = translator(langOf(request));
      return send(reply, 200, { link, tr, refusal: closedReason(link, app.clock()) });
    },
  );

  app.post(
    '/:id',
    {
      schema: { hide, params: Params, querystring: PageQuery, body: Form },
      onRequest: limited('link-pay', LINK_PAY_LIMIT),
    },
    async (request, reply) => {
      const link = await findLinkForPage(app.db, request.params.id);
      const lang = langOf(request);
      const tr = translator(lang);
      const form = request.body ?? {};
      const answers = { amount: one(form.amount), email: one(form.email) };
      // The pay button (a form on the merchant's own site) posts here without a token, cross-site:
      // it lands on this page, whose own "Pay" then makes the invoice. A page elsewhere can bring a
      // payer here, never make an invoice by itself (docs/links.md).
      if (form.token === undefined || request.headers['sec-fetch-site'] === 'cross-site') {
        return send(reply, 200, { link, tr, refusal: closedReason(link, app.clock()), answers });
      }
      if (!isFormTokenValid(link.form_secret, link.id, form.token, app.clock())) {
        return send(reply, 403, { link, tr, refusal: 'token', answers });
      }
      const result = await payLink(app.db, link, answers, lang, invoiceContext(app));
      if ('refusal' in result) {
        const status = result.refusal === 'amount' || result.refusal === 'email' ? 422 : 409;
        return send(reply, status, { link: link as PublicLink, tr, refusal: result.refusal, answers });
      }
      return reply.redirect(`${result.invoice.payment_url}?lang=${lang}`, 303);
    },
  );
};

function invoiceContext(app: Parameters<FastifyPluginAsyncTypebox>[0]) {
  return {
    now: app.clock(),
    publicBaseUrl: app.config.publicBaseUrl,
    networks: app.config.networks,
    rates: app.rates,
    dustPercent: app.config.dustPercent,
    watching: app.watching,
  };
}
