import type { FastifyInstance, LightMyRequestResponse as Response } from 'fastify';
import type { DashboardUser } from './dashboard.js';
import { FORM, formBody } from './dashboard.js';

export const PIN = '482913';

/** Creates a till through the dashboard's form and returns its id (the newest on the list). */
export async function createTill(
  owner: DashboardUser,
  form: { name?: string; pin?: string; items?: string } = {},
) {
  const tills = (html: string) => new Set(html.match(/(?<=\/pos\/)till_[A-Za-z0-9]+/g) ?? []);
  const before = tills((await owner.get('/dashboard/pos')).body);
  const res = await owner.post('/dashboard/pos', { name: 'Counter', pin: PIN, items: '', ...form });
  if (res.statusCode !== 303) throw new Error(`create till → ${res.statusCode} ${res.body.slice(0, 500)}`);
  // The one that was not there before (tills made at the same instant have no order among them).
  const id = [...tills((await owner.follow(res)).body)].find((t) => !before.has(t));
  if (!id) throw new Error('no new till link on the page');
  return id;
}

export const cookieOf = (res: Response) => String(res.headers['set-cookie'] ?? '').split(';')[0] as string;

/** Enters a PIN at a till, from a client address: the response (303 with the cookie when right). */
export function enterPin(app: FastifyInstance, id: string, pin: string, remoteAddress = '203.0.113.7') {
  return app.inject({
    method: 'POST',
    url: `/pos/${id}/unlock`,
    payload: formBody({ pin }),
    headers: FORM,
    remoteAddress,
  });
}

/** Unlocks a till with the right PIN and returns its session cookie. */
export async function unlock(app: FastifyInstance, id: string) {
  const res = await enterPin(app, id, PIN);
  if (res.statusCode !== 303) throw new Error(`unlock → ${res.statusCode} ${res.body.slice(0, 300)}`);
  return cookieOf(res);
}

export function charge(
  app: FastifyInstance,
  id: string,
  cookie: string,
  form: Record<string, string | string[]>,
) {
  return app.inject({
    method: 'POST',
    url: `/pos/${id}/charge`,
    payload: formBody(form),
    headers: { ...FORM, cookie },
  });
}
