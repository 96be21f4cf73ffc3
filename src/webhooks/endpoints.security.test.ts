import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { adminCall } from '../../test/webhooks.js';

/** Server-side request forgery: a merchant's URL must not make us reach our own network. */
let strict: TestApp;
let local: TestApp;
let m: Merchant;
let lm: Merchant;
beforeAll(async () => {
  [strict, local] = await Promise.all([
    startTestApp(),
    startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } }),
  ]);
  m = await createMerchant(strict.app);
  lm = await createMerchant(local.app);
});
afterAll(() => Promise.all([strict.close(), local.close()]));

async function register(t: TestApp, projectId: string, url: string) {
  return adminCall(t.app, 'POST', `/v1/admin/projects/${projectId}/webhook-endpoints`, { url });
}

function expectRefused(res: Awaited<ReturnType<typeof register>>, rule: string) {
  expect(res.statusCode).toBe(422);
  const body = res.json();
  expect(body.error.code).toBe('VALIDATION_ERROR');
  expect(body.error.details.errors).toEqual([expect.objectContaining({ in: 'body', field: 'url', rule })]);
}

describe('without PAYDESK_WEBHOOK_ALLOW_PRIVATE', () => {
  test.each([
    ['http://8.8.8.8/hooks', 'https_required'],
    ['http://127.0.0.1:8080/', 'https_required'],
    ['ftp://8.8.8.8/', 'https_required'],
    ['https://127.0.0.1/', 'private_address'],
    ['https://127.1.2.3:8443/x', 'private_address'],
    ['https://0x7f.1/', 'private_address'],
    ['https://2130706433/', 'private_address'],
    ['https://10.0.0.8/', 'private_address'],
    ['https://172.16.5.4/', 'private_address'],
    ['https://192.168.1.1/', 'private_address'],
    ['https://169.254.169.254/latest/meta-data/', 'link_local_address'],
    ['https://100.64.0.1/', 'private_address'],
    ['https://0.0.0.0/', 'private_address'],
    ['https://[::1]/', 'private_address'],
    ['https://[::ffff:127.0.0.1]/', 'private_address'],
    ['https://[::ffff:a9fe:a9fe]/', 'link_local_address'],
    ['https://[fd12:3456::1]/', 'private_address'],
    ['https://[fe80::1]/', 'link_local_address'],
    ['https://localhost/', 'private_address'],
    ['https://user:pass@8.8.8.8/', 'credentials'],
    ['not a url', 'format'],
  ])('%s → VALIDATION_ERROR (%s)', async (url, rule) => {
    expectRefused(await register(strict, m.projectId, url), rule);
  });

  test('https to a public address is accepted', async () => {
    const res = await register(strict, m.projectId, 'https://8.8.8.8/hooks?source=paydesk');
    expect(res.statusCode).toBe(201);
  });
});

describe('with PAYDESK_WEBHOOK_ALLOW_PRIVATE=true (local development)', () => {
  test.each([
    'http://127.0.0.1:8080/hooks',
    'http://localhost:3001/',
    'http://10.0.0.8/',
    'http://[::1]:9000/',
    'https://192.168.1.1/',
  ])('%s is accepted', async (url) => {
    expect((await register(local, lm.projectId, url)).statusCode).toBe(201);
  });

  // Contract §10 as amended: no development flag opens the cloud metadata service.
  test.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.1.1:8080/',
    'http://[fe80::1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://100.100.100.200/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://METADATA.google.internal./',
    'http://instance-data/latest/',
  ])('%s is refused all the same (link_local_address)', async (url) => {
    expectRefused(await register(local, lm.projectId, url), 'link_local_address');
  });

  test('plain http to a public address is still refused', async () => {
    expectRefused(await register(local, lm.projectId, 'http://8.8.8.8/hooks'), 'https_required');
  });
});

describe('the webhook admin routes require the operator token', () => {
  const routes = [
    ['POST', '/v1/admin/projects/prj_x/webhook-endpoints', { url: 'https://8.8.8.8/' }],
    ['GET', '/v1/admin/projects/prj_x/webhook-endpoints', undefined],
    ['DELETE', '/v1/admin/webhook-endpoints/we_x', undefined],
    ['GET', '/v1/admin/webhook-endpoints/we_x/deliveries', undefined],
    ['POST', '/v1/admin/events/evt_x/redeliver', undefined],
  ] as const;

  test.each(routes)('%s %s', async (method, url, payload) => {
    for (const [authorization, code] of [
      [undefined, 'API_KEY_REQUIRED'],
      [`Bearer ${ADMIN_TOKEN}x`, 'API_KEY_INVALID'],
      [m.auth.authorization, 'API_KEY_INVALID'],
    ] as const) {
      const res = await strict.app.inject({
        method,
        url,
        headers: authorization ? { authorization } : {},
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe(code);
    }
  });
});
