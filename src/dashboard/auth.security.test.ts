import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createMerchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import {
  FORM,
  formBody,
  inviteAndAccept,
  merchantWithOwner,
  PASSWORD,
  signIn,
} from '../../test/dashboard.js';

const clock = manualClock(new Date('2026-11-23T10:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const signInPost = (email: string, password: string, headers = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    payload: formBody({ email, password }),
    headers: { ...FORM, ...headers },
  });

describe('sign-in', () => {
  test('an invited owner sets a password, signs in, sees the navigation and signs out', async () => {
    const { owner } = await merchantWithOwner(t.app, 'owner1@shop.example');
    const home = await owner.get('/dashboard');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-security-policy']).toContain("script-src 'self'");
    expect(home.headers['cache-control']).toBe('no-store');
    for (const link of ['Overview', 'Invoices', 'API keys', 'Webhooks', 'Settings', 'Team']) {
      expect(home.body).toContain(`>${link}</a>`);
    }
    expect(home.body).toContain('Sign out</button>');
    const out = await owner.post('/dashboard/sign-out');
    expect(out.statusCode).toBe(303);
    // The same cookie is worthless once the session row is gone.
    const after = await owner.get('/dashboard');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/dashboard/sign-in');
  });

  test('the session cookie is HttpOnly and SameSite=Lax', async () => {
    const m = await createMerchant(t.app);
    await inviteAndAccept(t.app, m.accountId, 'cookie@shop.example');
    const res = await signInPost('cookie@shop.example', PASSWORD);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // PUBLIC_BASE_URL is http in tests
  });

  test('the cookie is Secure when PUBLIC_BASE_URL is https', async () => {
    const https = await startTestApp({ env: { PUBLIC_BASE_URL: 'https://pay.shop.example' } });
    try {
      const m = await createMerchant(https.app);
      await inviteAndAccept(https.app, m.accountId, 'secure@shop.example');
      const res = await https.app.inject({
        method: 'POST',
        url: '/dashboard/sign-in',
        payload: formBody({ email: 'secure@shop.example', password: PASSWORD }),
        headers: { ...FORM, origin: 'https://pay.shop.example' },
      });
      expect(res.statusCode).toBe(303);
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await https.close();
    }
  });

  test('a wrong password and an unknown email get the same answer', async () => {
    const m = await createMerchant(t.app);
    await inviteAndAccept(t.app, m.accountId, 'same@shop.example');
    const wrong = await signInPost('same@shop.example', 'not the password at all');
    const unknown = await signInPost('nobody@shop.example', 'not the password at all');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toContain('The email or password is not right');
    expect(wrong.body.replace('same@shop.example', 'X')).toBe(
      unknown.body.replace('nobody@shop.example', 'X'),
    );
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  test('failed sign-ins are rate limited per email, and then even the right password waits', async () => {
    const m = await createMerchant(t.app);
    await inviteAndAccept(t.app, m.accountId, 'limited@shop.example');
    for (let i = 0; i < 10; i++) {
      expect((await signInPost('limited@shop.example', `wrong password ${i}`)).statusCode).toBe(401);
    }
    const locked = await signInPost('limited@shop.example', PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    clock.advance(15 * 60_000);
    expect((await signInPost('limited@shop.example', PASSWORD)).statusCode).toBe(303);
  });

  test('a sign-in posted from another site is refused', async () => {
    const m = await createMerchant(t.app);
    await inviteAndAccept(t.app, m.accountId, 'xsite@shop.example');
    const res = await signInPost('xsite@shop.example', PASSWORD, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(422);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('invites', () => {
  test('an invite link works once', async () => {
    const m = await createMerchant(t.app);
    const { invitePath } = await inviteAndAccept(t.app, m.accountId, 'once@shop.example');
    const again = await t.app.inject({
      method: 'POST',
      url: invitePath,
      payload: formBody({ password: 'another long password' }),
      headers: FORM,
    });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('not valid');
    // The first password still works; the second was never set.
    expect((await signInPost('once@shop.example', 'another long password')).statusCode).toBe(401);
    expect((await signInPost('once@shop.example', PASSWORD)).statusCode).toBe(303);
  });

  test('an invite link expires after 72 hours', async () => {
    const m = await createMerchant(t.app);
    const { invite_url } = await admin(t.app, 'POST', `/v1/admin/accounts/${m.accountId}/users`, {
      email: 'late@shop.example',
    });
    const path = new URL(invite_url).pathname;
    expect((await t.app.inject({ url: path })).statusCode).toBe(200);
    clock.advance(72 * 3600_000 + 1);
    expect((await t.app.inject({ url: path })).statusCode).toBe(404);
    const post = await t.app.inject({
      method: 'POST',
      url: path,
      payload: formBody({ password: PASSWORD }),
      headers: FORM,
    });
    expect(post.statusCode).toBe(404);
    expect((await signInPost('late@shop.example', PASSWORD)).statusCode).toBe(401);
  });

  test('a short password is refused and the link stays usable', async () => {
    const m = await createMerchant(t.app);
    const { invite_url } = await admin(t.app, 'POST', `/v1/admin/accounts/${m.accountId}/users`, {
      email: 'short@shop.example',
    });
    const path = new URL(invite_url).pathname;
    const res = await t.app.inject({
      method: 'POST',
      url: path,
      payload: formBody({ password: 'short' }),
      headers: FORM,
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('at least 12 characters');
    const ok = await t.app.inject({
      method: 'POST',
      url: path,
      payload: formBody({ password: PASSWORD }),
      headers: FORM,
    });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/dashboard/sign-in?done=password_set');
  });

  test('the admin API refuses an over-long or unicode email, and a second user with the same email', async () => {
    const m = await createMerchant(t.app);
    const call = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/admin/accounts/${m.accountId}/users`,
        headers: { authorization: `Bearer ${'test-admin-token-0123456789'}` },
        payload: { email },
      });
    const long = await call(`${'a'.repeat(250)}@example.com`);
    expect(long.statusCode).toBe(422);
    expect(long.json().error.details.errors[0]).toMatchObject({ field: 'email', rule: 'max_length' });
    const unicode = await call('jоhn@example.com'); // a Cyrillic о
    expect(unicode.statusCode).toBe(422);
    expect(unicode.json().error.details.errors[0]).toMatchObject({ field: 'email', rule: 'ascii' });
    expect((await call('Dup@Example.com')).statusCode).toBe(201);
    const dup = await call('dup@example.com');
    expect(dup.statusCode).toBe(422);
    expect(dup.json().error.details.errors[0]).toMatchObject({ field: 'email', rule: 'taken' });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/accounts/acct_000000000000000000000000/users',
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
      payload: { email: 'x@example.com' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('cross-site requests', () => {
  test('a POST without the CSRF token, with a wrong one, or from a foreign Origin changes nothing', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'csrf@shop.example');
    const base = { cookie: owner.cookie, ...FORM };
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api-keys',
      payload: formBody({ name: 'x' }),
      headers: base,
    });
    const badToken = await t.app.inject({
      method: 'POST',
      url: '/dashboard/api-keys',
      payload: formBody({ _csrf: 'x'.repeat(43), name: 'x' }),
      headers: base,
    });
    const foreign = await owner.post(
      '/dashboard/api-keys',
      { name: 'x' },
      { origin: 'https://evil.example' },
    );
    const crossSite = await owner.post(
      '/dashboard/api-keys',
      { name: 'x' },
      { 'sec-fetch-site': 'cross-site' },
    );
    for (const res of [noToken, badToken, foreign, crossSite]) expect(res.statusCode).toBe(422);
    const keys = await owner.get('/dashboard/api-keys');
    expect(keys.body.match(/<tr>/g)?.length).toBe(2); // the header row and the merchant's one key
    expect(m.keyId).toBeTruthy();
  });
});

describe('sessions end at once', () => {
  test('a removed user is signed out on the next request', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'boss@shop.example');
    const { userId } = await inviteAndAccept(t.app, m.accountId, 'staff@shop.example', 'viewer');
    const staff = await signIn(t.app, 'staff@shop.example');
    expect((await staff.get('/dashboard/invoices')).statusCode).toBe(200);
    const removed = await owner.post(`/dashboard/team/${userId}/remove`);
    expect(removed.statusCode).toBe(303);
    const after = await staff.get('/dashboard/invoices');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/dashboard/sign-in');
    expect((await signInPost('staff@shop.example', PASSWORD)).statusCode).toBe(401);
  });

  test('sessions expire after 12 idle hours', async () => {
    const { owner } = await merchantWithOwner(t.app, 'idle@shop.example');
    clock.advance(12 * 3600_000 + 1000);
    expect((await owner.get('/dashboard')).statusCode).toBe(303);
  });
});
