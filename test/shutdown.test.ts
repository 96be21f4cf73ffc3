import { existsSync } from 'node:fs';
import http from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  api,
  beginPost,
  demoFolder,
  killAll,
  removeTempDirs,
  SLOW,
  startPaydesk,
  storedInvoiceIds,
} from './process.js';

afterEach(killAll);
afterAll(removeTempDirs);

describe('graceful shutdown', () => {
  it(
    'answers in-flight requests normally after SIGTERM, turns new ones away, exits 0 within 10 s and removes the lock file',
    async () => {
      const { cwd, secret, lockFile } = await demoFolder();
      const server = await startPaydesk({ cwd });
      await server.ready();
      expect(existsSync(lockFile)).toBe(true);

      const pending = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          beginPost(server.baseUrl, secret, { amount: `${n}.00`, order_id: `in-flight-${n}` }),
        ),
      );
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      await server.waitForStdout(/"signal":"SIGTERM".*"msg":"shutting down/);

      // A request arriving now is turned away in the envelope (or finds the listener closed).
      const late = await fetch(`${server.baseUrl}/v1/health`).then(
        async (res) => ({
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: await res.json(),
        }),
        () => 'refused' as const,
      );
      if (late !== 'refused') {
        expect(late.status).toBe(503);
        expect(late.retryAfter).toBe('5');
        expect(late.body).toMatchObject({ success: false, error: { code: 'INTERNAL_SERVER_ERROR' } });
      }

      const responses = await Promise.all(pending.map((finish) => finish()));
      expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      expect(responses.map((r) => r.body.data.order_id)).toEqual(
        [1, 2, 3, 4, 5].map((n) => `in-flight-${n}`),
      );

      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      expect(existsSync(lockFile)).toBe(false);
      expect(server.stderr()).toBe('');

      // What was answered 201 was committed: the folder holds those five invoices and no other.
      // (A restart after a clean stop is test/quick-start.test.ts's; here the database alone is read.)
      const answered = responses.map((r) => r.body.data.id as string);
      expect(await storedInvoiceIds(cwd)).toEqual(answered.sort());
    },
    SLOW,
  );
});

/** One keep-alive client in a closed loop: its own agent, one socket, a request as soon as the last answered. */
async function keepAliveClient(baseUrl: string, secret: string, name: string, stopAfter: () => boolean) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const answers: Array<{ status: number; body: any; headers: http.IncomingHttpHeaders }> = [];
  const errors: Array<{ code: string; reusedSocket: boolean }> = [];
  for (let n = 0; errors.length === 0 && !(stopAfter() && answers.some((a) => a.status === 503)); n++) {
    const payload = JSON.stringify({ amount: '1.00', order_id: `${name}-${n}` });
    await new Promise<void>((resolve) => {
      const req = http.request(`${baseUrl}/v1/merchant/invoices`, {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          answers.push({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: res.headers });
          resolve();
        });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        errors.push({ code: err.code ?? err.message, reusedSocket: req.reusedSocket });
        resolve();
      });
      req.end(payload);
    });
  }
  agent.destroy();
  return { answers, errors };
}

describe('graceful shutdown under load', () => {
  it(
    'with 16 keep-alive clients: every answer is the envelope or a refused connection, no reset of a kept-alive socket, nothing acknowledged lost',
    async () => {
      const { cwd, secret } = await demoFolder();
      const env = { RATE_LIMIT_MAX: '1000000' };
      const server = await startPaydesk({ cwd, env });
      await server.ready();
      let signalled = false;
      const clients = Array.from({ length: 16 }, (_, i) =>
        keepAliveClient(server.baseUrl, secret, `c${i}`, () => signalled),
      );
      // Some work first, so the signal lands with requests in flight on every client.
      const list = () => api(server, 'GET', '/v1/merchant/invoices?limit=1', secret);
      while ((await list()).body.meta.pagination.total < 64) {}
      server.child.kill('SIGTERM');
      signalled = true;
      const results = await Promise.all(clients);
      expect(await server.exited).toEqual({ code: 0, signal: null });

      const answers = results.flatMap((r) => r.answers);
      const errors = results.flatMap((r) => r.errors);
      for (const a of answers) {
        expect([201, 503]).toContain(a.status);
        expect(a.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
        expect(a.headers['x-trace-id']).toBe(a.body.trace_id);
        if (a.status === 503) {
          expect(a.body).toMatchObject({
            success: false,
            error: { code: 'INTERNAL_SERVER_ERROR', details: {} },
          });
          expect(a.headers['retry-after']).toBe('5');
          expect(a.headers.connection).toBe('close');
        }
      }
      expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
      // A connection that was refused, or reset before it was ever used: never one kept alive.
      for (const e of errors) {
        expect(['ECONNREFUSED', 'ECONNRESET']).toContain(e.code);
        expect(e.reusedSocket).toBe(false);
      }

      // Every invoice acknowledged is stored, and nothing else is (a 503 committed nothing).
      const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.body.data.id as string);
      expect(await storedInvoiceIds(cwd)).toEqual(acknowledged.sort());
    },
    SLOW,
  );
});
