import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { merchantWithOwner, PASSWORD } from '../../test/dashboard.js';
import { enrolTwoFactor, recoveryCodesOn, signInWithCode } from '../../test/two-factor.js';

const clock = manualClock(new Date('2026-11-27T10:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

test('turning two-factor on shows ten recovery codes once; each signs in once in place of a code', async () => {
  const { owner } = await merchantWithOwner(t.app, 'codes@shop.example');
  const { codes, codesPage } = await enrolTwoFactor(owner, clock());
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
  const reload = await owner.get(codesPage);
  expect(recoveryCodesOn(reload.body)).toEqual([]);
  expect(reload.body).toContain('shown once');

  // Typed as a person might: upper case, spaces for dashes.
  const typed = (codes[0] as string).toUpperCase().replaceAll('-', ' ');
  const used = await signInWithCode(t.app, 'codes@shop.example', typed);
  expect(used).toMatchObject({ status: 303, location: '/dashboard' });
  expect((await signInWithCode(t.app, 'codes@shop.example', codes[0] as string)).status).toBe(401);
  expect((await signInWithCode(t.app, 'codes@shop.example', 'aaaa-bbbb-cccc-dddd')).status).toBe(401);
  expect((await owner.get('/dashboard/account')).body).toContain('9 unused recovery codes');
  expect((await owner.get('/dashboard/team')).body).toContain('user.recovery_code_used');
});

test('new recovery codes ask for the password and replace the old ones', async () => {
  const { owner } = await merchantWithOwner(t.app, 'renew@shop.example');
  const { codes: old } = await enrolTwoFactor(owner, clock());
  const wrong = await owner.post('/dashboard/account/recovery-codes', {
    current_password: 'not my password',
  });
  expect(wrong.statusCode).toBe(422);
  expect(wrong.body).toContain('The password is not right');
  const renewed = await owner.post('/dashboard/account/recovery-codes', { current_password: PASSWORD });
  const fresh = recoveryCodesOn((await owner.follow(renewed)).body);
  expect(fresh).toHaveLength(10);
  expect((await signInWithCode(t.app, 'renew@shop.example', old[1] as string)).status).toBe(401);
  expect((await signInWithCode(t.app, 'renew@shop.example', fresh[1] as string)).status).toBe(303);
});
