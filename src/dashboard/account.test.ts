import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { FORM, formBody, merchantWithOwner, PASSWORD, signIn } from '../../test/dashboard.js';

const clock = manualClock(new Date('2026-11-23T10:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const codeFor = (secret: string, at: Date) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

test('two-factor: enrol with a code from the app, then sign-in asks for one', async () => {
  const { owner } = await merchantWithOwner(t.app, 'totp@shop.example');
  const begin = await owner.follow(await owner.post('/dashboard/account/totp/begin'));
  expect(begin.statusCode).toBe(200);
  expect(begin.body).toContain('<svg class="qr"');
  const secret = /Key: <code>([A-Z2-7]+)<\/code>/.exec(begin.body)?.[1] as string;
  expect((await owner.post('/dashboard/account/totp/confirm', { code: '000000' })).statusCode).toBe(422);
  const on = await owner.post('/dashboard/account/totp/confirm', { code: codeFor(secret, clock()) });
  expect(on.statusCode).toBe(303);

  const first = await t.app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    payload: formBody({ email: 'totp@shop.example', password: PASSWORD }),
    headers: FORM,
  });
  expect(first.headers.location).toBe('/dashboard/sign-in/totp');
  const cookie = String(first.headers['set-cookie']).split(';')[0] as string;
  // Half signed in: no page of the dashboard yet.
  expect((await t.app.inject({ url: '/dashboard', headers: { cookie } })).statusCode).toBe(303);
  const totp = (code: string) =>
    t.app.inject({
      method: 'POST',
      url: '/dashboard/sign-in/totp',
      payload: formBody({ code }),
      headers: { ...FORM, cookie },
    });
  expect((await totp('123456')).statusCode).toBe(401);
  // The enrolment's code was used; the next one the app shows signs in.
  clock.advance(30_000);
  const done = await totp(codeFor(secret, clock()));
  expect(done.statusCode).toBe(303);
  expect(done.headers.location).toBe('/dashboard');
  expect((await t.app.inject({ url: '/dashboard', headers: { cookie } })).statusCode).toBe(200);
});

test('changing the password ends the other sessions at once, and keeps this one', async () => {
  await merchantWithOwner(t.app, 'pw@shop.example');
  const here = await signIn(t.app, 'pw@shop.example');
  const elsewhere = await signIn(t.app, 'pw@shop.example');
  const wrong = await here.post('/dashboard/account/password', {
    current_password: 'not it at all',
    new_password: 'a brand new passphrase',
  });
  expect(wrong.statusCode).toBe(422);
  const ok = await here.post('/dashboard/account/password', {
    current_password: PASSWORD,
    new_password: 'a brand new passphrase',
  });
  expect(ok.statusCode).toBe(303);
  expect((await here.get('/dashboard')).statusCode).toBe(200);
  expect((await elsewhere.get('/dashboard')).statusCode).toBe(303);
  await expect(signIn(t.app, 'pw@shop.example')).rejects.toThrow(/401/);
  expect((await signIn(t.app, 'pw@shop.example', 'a brand new passphrase')).cookie).toBeTruthy();
});
