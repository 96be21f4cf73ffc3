import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';
import { type DashboardUser, FORM, formBody, PASSWORD } from './dashboard.js';

/** The code an authenticator app shows at `at`. */
export const codeFor = (secret: string, at: Date) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

export const recoveryCodesOn = (html: string) =>
  /<pre id="recovery-codes"[^>]*>([^<]*)<\/pre>/.exec(html)?.[1]?.split('\n') ?? [];

/** Turns two-factor on as a person does (scan, type the code); the secret and the codes shown once. */
export async function enrolTwoFactor(user: DashboardUser, now: Date) {
  const begin = await user.follow(await user.post('/dashboard/account/totp/begin'));
  const secret = /Key: <code>([A-Z2-7]+)<\/code>/.exec(begin.body)?.[1] as string;
  const confirmed = await user.post('/dashboard/account/totp/confirm', { code: codeFor(secret, now) });
  if (confirmed.statusCode !== 303) throw new Error(`confirm → ${confirmed.statusCode} ${confirmed.body}`);
  const shown = await user.follow(confirmed);
  return { secret, codes: recoveryCodesOn(shown.body), codesPage: String(confirmed.headers.location) };
}

/** Password then second factor; the final answer of the second step, and the cookie. */
export async function signInWithCode(app: FastifyInstance, email: string, code: string, password = PASSWORD) {
  const first = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    payload: formBody({ email, password }),
    headers: FORM,
  });
  if (first.headers.location !== '/dashboard/sign-in/totp') throw new Error(`sign-in → ${first.statusCode}`);
  const cookie = String(first.headers['set-cookie']).split(';')[0] as string;
  const second = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in/totp',
    payload: formBody({ code }),
    headers: { ...FORM, cookie },
  });
  return { status: second.statusCode, location: second.headers.location, cookie };
}
