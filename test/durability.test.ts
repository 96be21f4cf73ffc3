import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, onPostgres } from './database.js';
import { callPaydesk, demoFolder, killAll, removeTempDirs, startPaydesk, tempDir } from './process.js';

const ADMIN_TOKEN = 'durability-test-admin-token-9Kd3Wq';
const SLOW = 240_000;

afterEach(killAll);
afterAll(removeTempDirs);

/** A merchant's webhook receiver: answers 200 and remembers every attempt's webhook-id and body. */
async function startReceiver() {
  const received: Array<{ id: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), body });
      res.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, close: () => new Promise((r) => server.close(r)) };
}

describe('webhook delivery survives a crash', () => {
  it(
    'events pending when the process is SIGKILLed are all delivered after a restart, each exactly once',
    async () => {
      const receiver = await startReceiver();
      const db = await freshDatabase();
      // On PGlite, a folder `npm start` has already initialised: the test is about the restart, not initdb.
      const { cwd } = onPostgres ? { cwd: await tempDir() } : await demoFolder();
      const env = {
        ...(onPostgres ? { DATABASE_URL: db.url } : {}),
        PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN,
        PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true',
      };
      // First life: HTTP only, so every delivery stays pending in the outbox.
      const first = await startPaydesk({ cwd, env: { ...env, PAYDESK_ROLE: 'api' } });
      await first.ready();
      const call = (method: string, url: string, body?: object, token = ADMIN_TOKEN) =>
        callPaydesk(first.baseUrl, method, url, token, body);
      const account = await call('POST', '/v1/admin/accounts', { name: 'shop' });
      const project = await call('POST', '/v1/admin/projects', { account_id: account.id, name: 'shop' });
      const key = await call('POST', `/v1/admin/projects/${project.id}/api-keys`, {});
      await call('POST', `/v1/admin/projects/${project.id}/webhook-endpoints`, { url: receiver.url });
      const invoices = [];
      for (let i = 0; i < 10; i++) {
        invoices.push(await call('POST', '/v1/merchant/invoices', { amount: '5.00' }, key.secret));
      }
      for (const inv of invoices.slice(0, 3))
        await call('POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {});
      // 10 created + 3 × (payment_detected + paid)
      const expected = 16;
      expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');
      expect(receiver.received).toHaveLength(0);

      // Second life: the workers find the outbox as the crash left it.
      const second = await startPaydesk({ cwd, env });
      await second.ready();
      const deadline = Date.now() + 60_000;
      while (receiver.received.length < expected && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      // A clean stop lets every send in flight finish: after it, what arrived is all that ever will.
      expect((await second.stop('SIGTERM')).code).toBe(0);
      const ids = receiver.received.map((r) => r.id);
      expect(ids).toHaveLength(expected);
      expect(new Set(ids).size).toBe(expected);
      const types = receiver.received.map((r) => JSON.parse(r.body).type).sort();
      expect(types.filter((t) => t === 'invoice.created')).toHaveLength(10);
      expect(types.filter((t) => t === 'invoice.paid')).toHaveLength(3);
      await receiver.close();
      await db.drop();
    },
    SLOW,
  );
});
