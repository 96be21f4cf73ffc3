import type { FastifyInstance } from 'fastify';
import type { Merchant } from './app.js';

/** Creates a payment link through the merchant API; throws unless it was created. */
export async function createLink(app: FastifyInstance, m: Merchant, body: object = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/merchant/payment-links',
    headers: m.auth,
    payload: { title: 'Logo design', amount: '25.00', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create link → ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; url: string; [k: string]: unknown };
}

/** The form token of a link page's "Pay" form, as a browser would read it. */
export function tokenOf(pageHtml: string): string {
  const token = /name="token" value="([^"]+)"/.exec(pageHtml)?.[1];
  if (!token) throw new Error('the page has no form token');
  return token;
}

/** Presses "Pay" as a browser does: the page, then its form, same-origin. */
export async function pressPay(
  app: FastifyInstance,
  id: string,
  fields: Record<string, string> = {},
  remoteAddress = '198.51.100.7',
  /** What happens between the page's view and the press (the link deactivated meanwhile). */
  meanwhile?: () => Promise<void>,
) {
  const page = await app.inject({ url: `/l/${id}`, remoteAddress });
  const token = tokenOf(page.body);
  await meanwhile?.();
  return app.inject({
    method: 'POST',
    url: `/l/${id}?lang=es`,
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    payload: new URLSearchParams({ token, ...fields }).toString(),
  });
}
