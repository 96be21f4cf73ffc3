import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, admin, createInvoice, startTestApp, type TestApp } from '../../test/app.js';
import { inviteAndAccept, merchantWithOwner, PASSWORD, signIn } from '../../test/dashboard.js';
import { createLink } from '../../test/links.js';
import { createTill } from '../../test/pos.js';
import { fanOutUntil } from '../../test/webhooks.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(() => t.close());

const secretOn = (html: string, id: string) =>
  new RegExp(`id="${id}" type="text" readonly value="([^"]+)"`).exec(html)?.[1];

/** A second merchant's ids: every one of them is NOT_FOUND to the first merchant's owner. */
async function foreignIds() {
  const { m, owner } = await merchantWithOwner(
    t.app,
    `other-${Math.random().toString(36).slice(2)}@shop.example`,
  );
  const added = await owner.post('/dashboard/webhooks', { url: 'http://127.0.0.1:9/other' });
  expect(added.statusCode).toBe(303);
  const invoice = (await createInvoice(t.app, m)).json().data.id;
  // What the webhook workers do (none run here): the event becomes a delivery, with its Resend button.
  await fanOutUntil(t.database.db, async () =>
    (await owner.get(`/dashboard/invoices/${invoice}`)).body.includes('/resend'),
  );
  const endpoint = /\/dashboard\/webhooks\/(we_[A-Za-z0-9]+)\/test/.exec(
    (await owner.get('/dashboard/webhooks')).body,
  )?.[1];
  const detail = (await owner.get(`/dashboard/invoices/${invoice}`)).body;
  const event = /\/events\/(evt_[A-Za-z0-9]+)\/resend/.exec(detail)?.[1];
  const paid = (await createInvoice(t.app, m)).json().data.id;
  await admin(t.app, 'POST', `/v1/admin/invoices/${paid}/simulate-payment`, {});
  const refunded = await t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${paid}/refunds`,
    headers: m.auth,
    payload: {},
  });
  const refund = refunded.json().data.refund.id as string;
  const link = (await createLink(t.app, m)).id;
  const till = await createTill(owner);
  return { m, invoice, endpoint, event, refund, link, till, userId: owner.userId };
}

/**
 * Which of the other account's ids a path parameter takes: by the parameter's name, or for `:id` by
 * the path segment before it. A route with a parameter not named here fails the test below until
 * someone adds it, so a new route cannot be left out of the isolation check.
 */
function idFor(url: string, param: string, other: Awaited<ReturnType<typeof foreignIds>>) {
  if (param === 'event') return other.event;
  const resource = url.split('/').at(url.split('/').indexOf(`:${param}`) - 1);
  const ids: Record<string, string | undefined> = {
    invoices: other.invoice,
    'api-keys': other.m.keyId,
    webhooks: other.endpoint,
    team: other.userId,
    refunds: other.refund,
    'payment-links': other.link,
    pos: other.till,
  };
  return param === 'id' ? ids[resource ?? ''] : undefined;
}

/** Routes whose parameter is no account's id: an invite token (a capability of its own), an asset name. */
const NOT_ACCOUNT_SCOPED = /^\/dashboard\/(invite|assets)\//;

describe("another account's ids", () => {
  test('are NOT_FOUND on every dashboard route that takes an id, and nothing of theirs changes', async () => {
    const other = await foreignIds();
    const { owner } = await merchantWithOwner(t.app, 'mine@shop.example');
    expect(other.event).toBeTruthy();
    const withIds = t.app.routeTable.filter(
      (r) => r.url.startsWith('/dashboard/') && r.url.includes('/:') && !NOT_ACCOUNT_SCOPED.test(r.url),
    );
    expect(withIds.length).toBeGreaterThanOrEqual(9);
    for (const route of withIds) {
      const url = route.url.replace(/:([a-z_]+)/g, (_, param: string) => {
        const id = idFor(route.url, param, other);
        if (!id) throw new Error(`${route.method} ${route.url}: whose id is :${param}? Add it to idFor()`);
        return id;
      });
      const res = route.method === 'GET' ? await owner.get(url) : await owner.post(url);
      expect({ route: `${route.method} ${url}`, status: res.statusCode }).toEqual({
        route: `${route.method} ${url}`,
        status: 404,
      });
    }
    const project = await owner.post('/dashboard/project', { project_id: other.m.projectId });
    expect(project.statusCode).toBe(404);
    // Their key still works, their endpoint is active, their owner can still sign in.
    expect((await t.app.inject({ url: '/v1/merchant/me', headers: other.m.auth })).statusCode).toBe(200);
    const list = await t.app.inject({
      url: `/v1/admin/projects/${other.m.projectId}/webhook-endpoints`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(list.json().data[0].status).toBe('active');
  });

  test("an unknown page is the dashboard's 404 page; an unknown JSON call the envelope", async () => {
    const { owner } = await merchantWithOwner(t.app, 'nopage@shop.example');
    const page = await owner.get('/dashboard/nope');
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const json = await owner.get('/dashboard/api/nope');
    expect(json.statusCode).toBe(404);
    expect(json.json().error.code).toBe('NOT_FOUND');
  });

  test('an unknown or malformed id is the same NOT_FOUND', async () => {
    const { owner } = await merchantWithOwner(t.app, 'unknown@shop.example');
    for (const url of [
      '/dashboard/invoices/inv_000000000000000000000000',
      '/dashboard/invoices/%00x',
      '/dashboard/api-keys/nope/revoke',
    ]) {
      expect((await owner.get(url)).statusCode, url).toBe(404);
    }
  });
});

describe('viewers', () => {
  test('never see keys, settings or the team, and cannot call owner actions', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'vowner@shop.example');
    await owner.post('/dashboard/webhooks', { url: 'http://127.0.0.1:9/v' });
    await inviteAndAccept(t.app, m.accountId, 'viewer1@shop.example', 'viewer');
    const viewer = await signIn(t.app, 'viewer1@shop.example', PASSWORD);
    const home = await viewer.get('/dashboard');
    expect(home.statusCode).toBe(200);
    expect(home.body).not.toContain('>API keys</a>');
    expect(home.body).not.toContain('>Settings</a>');
    expect(home.body).not.toContain('>Team</a>');
    expect((await viewer.get('/dashboard/invoices')).statusCode).toBe(200);
    const hooks = await viewer.get('/dashboard/webhooks');
    expect(hooks.statusCode).toBe(200);
    expect(hooks.body).not.toContain('Roll secret');
    expect(hooks.body).not.toContain('Add endpoint');
    for (const url of [
      '/dashboard/api-keys',
      '/dashboard/api-keys/new',
      '/dashboard/settings',
      '/dashboard/team',
      '/dashboard/team/invite',
      '/dashboard/webhooks/new',
      '/dashboard/pos',
    ]) {
      expect((await viewer.get(url)).statusCode, url).toBe(404);
    }
    const endpoint = /\/dashboard\/webhooks\/(we_[A-Za-z0-9]+)\/test/.exec(
      (await owner.get('/dashboard/webhooks')).body,
    )?.[1];
    const posts: Array<[string, Record<string, string>]> = [
      ['/dashboard/api-keys', { name: 'sneaky' }],
      [`/dashboard/api-keys/${m.keyId}/revoke`, {}],
      ['/dashboard/webhooks', { url: 'http://127.0.0.1:9/sneaky' }],
      [`/dashboard/webhooks/${endpoint}/roll`, {}],
      [`/dashboard/webhooks/${endpoint}/disable`, {}],
      [
        '/dashboard/settings',
        {
          name: 'Hijacked',
          ttl_minutes: '5',
          currency: 'USDT',
          payment_methods: 'sandbox:USDT',
          underpayment_tolerance_percent: '0',
          intent: 'save',
        },
      ],
      ['/dashboard/team/invite', { email: 'friend@evil.example', role: 'owner' }],
      ['/dashboard/pos', { name: 'Sneaky', pin: '123456', items: '' }],
      [`/dashboard/team/${owner.userId}/remove`, {}],
    ];
    for (const [url, form] of posts) expect((await viewer.post(url, form)).statusCode, url).toBe(404);
    expect((await t.app.inject({ url: '/v1/merchant/me', headers: m.auth })).json().data.project.name).toBe(
      'Test project',
    );
    const team = (await owner.get('/dashboard/team')).body;
    expect(team).not.toContain('friend@evil.example');
    expect((await owner.get('/dashboard/api-keys')).body).not.toContain('sneaky');
  });
});

test('no log line holds a password, session token, invite token, API secret or webhook secret', async () => {
  const { m } = await merchantWithOwner(t.app, 'logs@shop.example');
  const { invite_url } = await admin(t.app, 'POST', `/v1/admin/accounts/${m.accountId}/users`, {
    email: 'logs2@shop.example',
  });
  const invitePath = new URL(invite_url).pathname;
  await t.app.inject({ url: invitePath });
  await t.app.inject({
    method: 'POST',
    url: invitePath,
    payload: `password=${encodeURIComponent(PASSWORD)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const owner = await signIn(t.app, 'logs2@shop.example');
  await signIn(t.app, 'logs2@shop.example', PASSWORD).catch(() => undefined);
  await t.app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    payload: 'email=logs2%40shop.example&password=wrong-password-123',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const key = secretOn((await owner.post('/dashboard/api-keys', { name: 'k' })).body, 'secret-key') as string;
  const hook = secretOn(
    (await owner.post('/dashboard/webhooks', { url: 'http://127.0.0.1:9/l' })).body,
    'signing-secret',
  ) as string;
  await owner.post('/dashboard/api-keys', { name: 'x' }, { origin: 'https://evil.example' });
  const raw = t.rawLogs();
  // Contract §21: a capability token is written as … and its last 4 characters.
  expect(raw).toContain(`/dashboard/invite/…${invitePath.slice(-4)}`);
  const session = owner.cookie.split('=')[1] as string;
  for (const secret of [
    PASSWORD,
    'wrong-password-123',
    session,
    invitePath.split('/').pop() as string,
    key,
    hook,
    owner.csrf,
  ]) {
    expect(raw).not.toContain(secret);
  }
});
