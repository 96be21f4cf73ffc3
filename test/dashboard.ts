import type { FastifyInstance, LightMyRequestResponse as Response } from 'fastify';
import { newOnceToken } from '../src/users/form-results.js';
import { admin, createMerchant, type Merchant } from './app.js';

export const PASSWORD = 'correct horse battery staple';

/** A browser's view of the dashboard through app.inject: its cookie and the page's CSRF token. */
export interface DashboardUser {
  email: string;
  userId: string;
  cookie: string;
  csrf: string;
  get(url: string): Promise<Response>;
  /** GETs where a 303 leads, as a browser does after a form (fails on any other status). */
  follow(res: Response): Promise<Response>;
  post(
    url: string,
    form?: Record<string, string | string[]>,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

/** Invites a user through the admin API and accepts the invite with PASSWORD. */
export async function inviteAndAccept(
  app: FastifyInstance,
  accountId: string,
  email: string,
  role = 'owner',
) {
  const { user, invite_url } = await admin(app, 'POST', `/v1/admin/accounts/${accountId}/users`, {
    email,
    role,
  });
  const path = new URL(invite_url).pathname;
  const res = await app.inject({
    method: 'POST',
    url: path,
    payload: formBody({ password: PASSWORD }),
    headers: FORM,
  });
  if (res.statusCode !== 303 || res.headers.location !== '/dashboard/sign-in?done=password_set') {
    throw new Error(`accept invite → ${res.statusCode} ${res.body}`);
  }
  return { userId: user.id as string, invitePath: path };
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function formBody(form: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) params.append(k, one);
  return params.toString();
}

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1] as string;
}

export async function signIn(
  app: FastifyInstance,
  email: string,
  password = PASSWORD,
): Promise<DashboardUser> {
  const res = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    payload: formBody({ email, password }),
    headers: FORM,
  });
  if (res.statusCode !== 303) throw new Error(`sign-in → ${res.statusCode} ${res.body.slice(0, 300)}`);
  const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  const home = await app.inject({ url: '/dashboard', headers: { cookie } });
  const csrf = csrfOf(home.body);
  const user: DashboardUser = {
    email,
    userId: '',
    cookie,
    csrf,
    get: (url) => app.inject({ url, headers: { cookie } }),
    follow: (res) => {
      if (res.statusCode !== 303)
        throw new Error(`expected a 303, got ${res.statusCode} ${res.body.slice(0, 300)}`);
      return app.inject({ url: String(res.headers.location), headers: { cookie } });
    },
    // As a browser does with a form it has just loaded: the page's CSRF token and a new one-time token.
    post: (url, form = {}, headers = {}) =>
      app.inject({
        method: 'POST',
        url,
        payload: formBody({ _csrf: csrf, _once: newOnceToken(), ...form }),
        headers: { ...FORM, cookie, ...headers },
      }),
  };
  return user;
}

/** A merchant (account, project, key) with a signed-in dashboard owner. */
export async function merchantWithOwner(
  app: FastifyInstance,
  email: string,
  project: Record<string, unknown> = {},
) {
  const m: Merchant = await createMerchant(app, project);
  const { userId } = await inviteAndAccept(app, m.accountId, email);
  const owner = await signIn(app, email);
  owner.userId = userId;
  return { m, owner };
}
