import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock, startTestApp, TEST_SECRET_KEY, type TestApp } from '../../test/app.js';
import { merchantWithOwner, PASSWORD } from '../../test/dashboard.js';
import { onPostgres } from '../../test/database.js';
import { codeFor, enrolTwoFactor, signInWithCode } from '../../test/two-factor.js';
import { secretKeyFrom } from '../secrets/key.js';
import { sealClearTotpSecrets } from '../users/totp-secret.js';

const clock = manualClock(new Date('2026-11-27T10:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const storedSecret = async (email: string) =>
  (
    await t.database.db
      .selectFrom('dashboard_users')
      .select('totp_secret')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).totp_secret;

test('a code from the app is accepted once: no replay within its window, nor an older code after it', async () => {
  const { owner } = await merchantWithOwner(t.app, 'replay@2fa.example');
  const { secret } = await enrolTwoFactor(owner, clock());
  // The enrolment's own code was used there.
  expect((await signInWithCode(t.app, 'replay@2fa.example', codeFor(secret, clock()))).status).toBe(401);
  clock.advance(30_000);
  const code = codeFor(secret, clock());
  expect((await signInWithCode(t.app, 'replay@2fa.example', code)).status).toBe(303);
  clock.advance(10_000); // still inside the code's window
  expect((await signInWithCode(t.app, 'replay@2fa.example', code)).status).toBe(401);
  clock.advance(30_000);
  const next = codeFor(secret, clock());
  expect((await signInWithCode(t.app, 'replay@2fa.example', next)).status).toBe(303);
  // The code of the step before, still inside the window of one step either side, is refused too.
  const older = codeFor(secret, new Date(clock().getTime() - 30_000));
  expect((await signInWithCode(t.app, 'replay@2fa.example', older)).status).toBe(401);
});

test('turning two-factor off asks for the password or an unused code, not a session alone', async () => {
  const { owner } = await merchantWithOwner(t.app, 'off@2fa.example');
  const { secret } = await enrolTwoFactor(owner, clock());
  const off = (form: Record<string, string>) => owner.post('/dashboard/account/totp/disable', form);
  expect((await off({})).statusCode).toBe(422);
  expect((await off({ confirm: 'not my password at all' })).statusCode).toBe(422);
  expect((await off({ confirm: codeFor(secret, clock()) })).statusCode).toBe(422); // used at enrolment
  expect((await owner.get('/dashboard/account')).body).toContain('Turn off two-factor');
  expect(await storedSecret('off@2fa.example')).not.toBeNull();

  clock.advance(30_000);
  expect((await off({ confirm: codeFor(secret, clock()) })).statusCode).toBe(303);
  expect(await storedSecret('off@2fa.example')).toBeNull();

  const again = await enrolTwoFactor(owner, clock());
  expect(again.secret).not.toBe(secret);
  expect((await off({ confirm: PASSWORD })).statusCode).toBe(303);
  expect((await owner.get('/dashboard/account')).body).toContain('Set up two-factor');
});

test('the TOTP secret is sealed at rest (AES-256-GCM), and one stored in clear by an earlier version is sealed at start', async () => {
  const { owner } = await merchantWithOwner(t.app, 'sealed@2fa.example');
  const { secret } = await enrolTwoFactor(owner, clock());
  const stored = (await storedSecret('sealed@2fa.example')) as string;
  expect(stored).toMatch(/^sealed:v1:/);
  expect(stored).not.toContain(secret);

  // As versions before issue 33 left it: in clear. Still read, then sealed by the start-up step.
  await t.database.db
    .updateTable('dashboard_users')
    .set({ totp_secret: secret })
    .where('email', '=', 'sealed@2fa.example')
    .execute();
  clock.advance(30_000);
  expect((await signInWithCode(t.app, 'sealed@2fa.example', codeFor(secret, clock()))).status).toBe(303);
  const key = secretKeyFrom(TEST_SECRET_KEY);
  expect((await sealClearTotpSecrets(t.database.db, key)).sealed).toBeGreaterThanOrEqual(1);
  expect(await storedSecret('sealed@2fa.example')).toMatch(/^sealed:v1:/);
  expect(await sealClearTotpSecrets(t.database.db, key)).toEqual({ sealed: 0, left: 0 });
  clock.advance(30_000);
  expect((await signInWithCode(t.app, 'sealed@2fa.example', codeFor(secret, clock()))).status).toBe(303);
});

test.skipIf(!onPostgres)(
  'on PostgreSQL without PAYDESK_ENCRYPTION_KEY, two-factor is not turned on and the page says why',
  async () => {
    const keyless = await startTestApp({ clock, env: { PAYDESK_ENCRYPTION_KEY: '' } });
    try {
      const { owner } = await merchantWithOwner(keyless.app, 'nokey@2fa.example');
      const res = await owner.post('/dashboard/account/totp/begin');
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('the server has no PAYDESK_ENCRYPTION_KEY');
      expect(keyless.app.secretKey()).toBeUndefined();
    } finally {
      await keyless.close();
    }
  },
);
