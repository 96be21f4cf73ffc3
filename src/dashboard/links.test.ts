import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { type DashboardUser, inviteAndAccept, merchantWithOwner, signIn } from '../../test/dashboard.js';
import { pressPay } from '../../test/links.js';

let t: TestApp;
let owner: DashboardUser;
let viewer: DashboardUser;
beforeAll(async () => {
  t = await startTestApp();
  const made = await merchantWithOwner(t.app, 'owner@links.example');
  owner = made.owner;
  await inviteAndAccept(t.app, made.m.accountId, 'viewer@links.example', 'viewer');
  viewer = await signIn(t.app, 'viewer@links.example');
});
afterAll(() => t.close());

test('an owner creates a link, gets its pay button, sees its invoice, and deactivates it', async () => {
  const created = await owner.post('/dashboard/payment-links', {
    title: 'Logo design',
    amount: '25.00',
    max_uses: '1',
    description: '',
    min_amount: '',
    max_amount: '',
  });
  expect(created.statusCode).toBe(303);
  const page = await owner.follow(created);
  expect(page.statusCode).toBe(200);
  const id = /\/dashboard\/payment-links\/(plink_\w+)/.exec(String(created.headers.location))?.[1] as string;
  // The pay button: a plain form posting to the link, no script.
  expect(page.body).toContain(
    `&lt;form method=&quot;post&quot; action=&quot;http://paydesk.test/l/${id}&quot;&gt;`,
  );
  expect(page.body).not.toContain('&lt;script');
  expect(page.body).toContain('No invoices yet.');
  expect((await pressPay(t.app, id)).statusCode).toBe(303);
  const after = await owner.get(`/dashboard/payment-links/${id}`);
  expect(after.body).toMatch(/<code>inv_\w+<\/code>/);
  expect(after.body).toContain('1 of 1');
  const list = await viewer.get('/dashboard/payment-links');
  expect(list.body).toContain('Logo design');
  expect(list.body).not.toContain('Create link');
  // A viewer is told nothing exists there (dashboard/guard.ts requireOwner).
  expect((await viewer.post(`/dashboard/payment-links/${id}/active`, { active: 'false' })).statusCode).toBe(
    404,
  );
  const off = await owner.post(`/dashboard/payment-links/${id}/active`, { active: 'false' });
  expect((await owner.follow(off)).body).toContain('Activate');
});

test('a bad form is refused with the API rule, and nothing is made', async () => {
  const res = await owner.post('/dashboard/payment-links', { title: 'x', amount: '5', min_amount: '1' });
  expect(res.statusCode).toBe(422);
  const bad = await owner.post('/dashboard/payment-links', { title: 'x', max_uses: 'many' });
  expect(bad.statusCode).toBe(422);
  expect((await owner.get('/dashboard/payment-links')).body.match(/<tr>/g)?.length).toBe(2);
});
