import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  api,
  demoFolder,
  freePort,
  killAll,
  type PaydeskProcess,
  removeTempDirs,
  SLOW,
  startPaydesk,
} from './process.js';
import { type LocalRedis, localRedis } from './redis.js';
import { eventually } from './webhooks.js';

afterEach(killAll);
afterAll(removeTempDirs);

/** Redis is a protection, not a dependency: a real Paydesk process against a real redis-server. */
describe('the shared rate-limit store', () => {
  let redis: LocalRedis | undefined;
  afterAll(() => redis?.kill());

  /** Every request is answered, 2xx, within a second, whatever Redis is doing. */
  async function served(p: PaydeskProcess, secret: string) {
    const calls = [
      () => api(p, 'GET', '/v1/merchant/me', secret),
      () => api(p, 'POST', '/v1/merchant/invoices', secret, { amount: '2.00' }),
      () => api(p, 'GET', '/v1/merchant/invoices?limit=1', secret),
      () => api(p, 'GET', '/v1/health'),
    ];
    for (const call of calls) {
      const started = performance.now();
      const res = await call();
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(res.status).toBeLessThan(300);
    }
  }

  const health = async (p: PaydeskProcess) => (await api(p, 'GET', '/v1/health')).body.data.redis;
  const logLines = (p: PaydeskProcess) =>
    p
      .stdout()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { level: number; msg: string; redis?: string });

  it(
    'down at start-up, started, killed, restarted and hung: every request served within 1 s; one log line per change; health says which',
    async () => {
      const port = await freePort();
      redis = localRedis(port);
      const { cwd, secret } = await demoFolder();
      const p = await startPaydesk({ cwd, env: { REDIS_URL: redis.url } });
      await p.ready();

      // Down at start-up: the in-process limiter counts, and health says so (still 200).
      await eventually(async () => (await health(p)) === 'unavailable');
      await served(p, secret);
      const limited = await api(p, 'GET', '/v1/merchant/me', secret);
      expect(limited.headers.get('ratelimit-limit')).toBe('100');

      await redis.start();
      await eventually(async () => (await health(p)) === 'ok', 15_000);
      await served(p, secret);
      expect((await redis.keys('paydesk:rl:*')).length).toBeGreaterThan(0);

      await redis.kill();
      await served(p, secret);
      expect(await health(p)).toBe('unavailable');

      await redis.start();
      await eventually(async () => (await health(p)) === 'ok', 15_000);

      redis.freeze();
      await served(p, secret);
      await eventually(async () => (await health(p)) === 'unavailable');
      redis.thaw();
      await eventually(async () => (await health(p)) === 'ok', 15_000);
      await served(p, secret);

      expect(await p.stop()).toEqual({ code: 0, signal: null });
      const changes = logLines(p).filter((l) => l.redis !== undefined);
      expect(changes.map((l) => l.redis)).toEqual([
        'unavailable',
        'ok',
        'unavailable',
        'ok',
        'unavailable',
        'ok',
      ]);
      expect(changes.filter((l) => l.redis === 'unavailable').every((l) => l.level === 40)).toBe(true);
      expect(p.stdout() + p.stderr()).not.toMatch(/Unhandled error event/);
      expect(p.stderr()).toBe('');
    },
    SLOW,
  );
});
