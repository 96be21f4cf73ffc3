import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { merchantWithOwner } from '../../test/dashboard.js';
import { listApiKeys } from '../merchants/service.js';
import { newOnceToken } from '../users/form-results.js';
import { listEndpoints } from '../webhooks/service.js';

/**
 * Contract §17: a form is sent once. The same form posted again (a double click, the back button and
 * submit, "Resubmit form") repeats nothing and leads to the first post's result page.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(() => t.close());

describe('a dashboard form is sent once', () => {
  test('a double click (two posts of one form at once) creates one key, and both lead to its page', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'double@shop.example');
    const before = (await listApiKeys(t.database.db, m.projectId)).length;
    const _once = newOnceToken();
    const [a, b] = await Promise.all([
      owner.post('/dashboard/api-keys', { name: 'twice', _once }),
      owner.post('/dashboard/api-keys', { name: 'twice', _once }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([303, 303]);
    expect(a.headers.location).toBe(b.headers.location);
    expect((await listApiKeys(t.database.db, m.projectId)).length).toBe(before + 1);
  });

  test('the same form sent again later (back, then submit) adds no second endpoint', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'back@shop.example');
    const _once = newOnceToken();
    const first = await owner.post('/dashboard/webhooks', { url: 'http://127.0.0.1:9/once', _once });
    const secret = /value="(whsec_[^"]+)"/.exec((await owner.follow(first)).body)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const again = await owner.post('/dashboard/webhooks', { url: 'http://127.0.0.1:9/once', _once });
    expect(again.headers.location).toBe(first.headers.location);
    expect((await owner.follow(again)).body).not.toContain(secret as string);
    expect(await listEndpoints(t.database.db, m.projectId)).toHaveLength(1);
  });

  test('a form that came back with errors can be corrected and sent with the same token', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'retry@shop.example');
    const _once = newOnceToken();
    const refused = await owner.post('/dashboard/webhooks', { url: 'not a url', _once });
    expect(refused.statusCode).toBe(422);
    const fixed = await owner.post('/dashboard/webhooks', { url: 'http://127.0.0.1:9/fixed', _once });
    expect(fixed.statusCode).toBe(303);
    expect(await listEndpoints(t.database.db, m.projectId)).toHaveLength(1);
  });

  test("another session's token, or a malformed one, claims nothing of this session's", async () => {
    const { owner } = await merchantWithOwner(t.app, 'mine@shop.example');
    const { owner: other } = await merchantWithOwner(t.app, 'theirs@shop.example');
    const _once = newOnceToken();
    const mine = await owner.post('/dashboard/api-keys', { name: 'mine', _once });
    const theirs = await other.post('/dashboard/api-keys', { name: 'theirs', _once });
    expect(theirs.statusCode).toBe(303);
    expect(theirs.headers.location).not.toBe(mine.headers.location);
    // The other session cannot read this session's secret through its result page.
    const stolen = await other.get(String(mine.headers.location));
    expect(stolen.statusCode).toBe(404);
    const bad = await owner.post('/dashboard/api-keys', { name: 'x', _once: 'short' });
    expect(bad.statusCode).toBe(422);
  });
});
