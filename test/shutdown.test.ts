import { existsSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { api, beginPost, demoFolder, killAll, removeTempDirs, SLOW, startPaydesk } from './process.js';

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

      const late = await fetch(`${server.baseUrl}/v1/health`).then(
        (res) => res.status,
        () => 'refused',
      );
      expect([503, 'refused']).toContain(late);

      const responses = await Promise.all(pending.map((finish) => finish()));
      expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      expect(responses.map((r) => r.body.data.order_id)).toEqual(
        [1, 2, 3, 4, 5].map((n) => `in-flight-${n}`),
      );

      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      expect(existsSync(lockFile)).toBe(false);
      expect(server.stderr()).toBe('');

      // What was answered 201 was committed: a restart on the same folder lists all five.
      const restarted = await startPaydesk({ cwd });
      await restarted.ready();
      const list = await api(restarted, 'GET', '/v1/merchant/invoices?order_id=in-flight-3', secret);
      expect(list.body.data.map((i: any) => i.id)).toEqual([responses[2]?.body.data.id]);
      const all = await api(restarted, 'GET', '/v1/merchant/invoices', secret);
      expect(all.body.meta.pagination.total).toBe(5);
      expect(await restarted.stop()).toEqual({ code: 0, signal: null });
    },
    SLOW,
  );
});
