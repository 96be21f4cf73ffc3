import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { FORM, formBody, inviteAndAccept, merchantWithOwner, signIn } from '../../test/dashboard.js';

const clock = manualClock(new Date('2026-11-27T10:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const secretOn = (html: string, id: string) =>
  new RegExp(`id="${id}" type="text" readonly value="([^"]+)"`).exec(html)?.[1] ?? '';
const pathOf = (link: string) => new URL(link).pathname;
const accept = (link: string, password: string) =>
  t.app.inject({ method: 'POST', url: pathOf(link), payload: formBody({ password }), headers: FORM });

test('inviting an address already on the team gives a new link; the earlier one stops working', async () => {
  const { owner } = await merchantWithOwner(t.app, 'boss@reinvite.example');
  const invite = async () => {
    const res = await owner.follow(
      await owner.post('/dashboard/team/invite', { email: 'late@reinvite.example', role: 'viewer' }),
    );
    expect(res.statusCode).toBe(200);
    return res;
  };
  const first = secretOn((await invite()).body, 'invite-link');
  const again = await invite();
  expect(again.body).toContain('New invite link');
  expect(again.body).toContain('already on the team (viewer)');
  const second = secretOn(again.body, 'invite-link');
  expect(second).not.toBe(first);
  expect((await t.app.inject({ url: pathOf(first) })).statusCode).toBe(404);
  expect((await accept(first, 'a password set late')).statusCode).toBe(404);
  expect((await accept(second, 'a password set late')).statusCode).toBe(303);
  const viewer = await signIn(t.app, 'late@reinvite.example', 'a password set late');
  expect((await viewer.get('/dashboard')).statusCode).toBe(200);
  const team = await owner.get('/dashboard/team');
  expect(team.body).toContain('user.reinvited');
  expect(team.body.match(/late@reinvite\.example/g)?.length).toBeGreaterThan(1);
});

test('a user who lost their password is re-invited: the new password ends their old sessions', async () => {
  const { owner, m } = await merchantWithOwner(t.app, 'boss2@reinvite.example');
  await inviteAndAccept(t.app, m.accountId, 'forgot@reinvite.example', 'viewer');
  const stale = await signIn(t.app, 'forgot@reinvite.example');
  const res = await owner.follow(
    await owner.post('/dashboard/team/invite', { email: 'Forgot@Reinvite.example', role: 'owner' }),
  );
  // The role is not changed by a re-invite: only the link is new.
  expect(res.body).toContain('already on the team (viewer)');
  expect((await accept(secretOn(res.body, 'invite-link'), 'my brand new password')).statusCode).toBe(303);
  expect((await stale.get('/dashboard')).statusCode).toBe(303);
  const back = await signIn(t.app, 'forgot@reinvite.example', 'my brand new password');
  expect((await back.get('/dashboard/team')).statusCode).toBe(404);
});

test("another account's user is still refused, with the same message as before", async () => {
  await merchantWithOwner(t.app, 'elsewhere@reinvite.example');
  const { owner } = await merchantWithOwner(t.app, 'boss3@reinvite.example');
  const res = await owner.post('/dashboard/team/invite', {
    email: 'elsewhere@reinvite.example',
    role: 'viewer',
  });
  expect(res.statusCode).toBe(422);
  expect(res.body).toContain('This email address already has a dashboard user');
});
