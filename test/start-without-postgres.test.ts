import net from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, onPostgres } from './database.js';
import {
  api,
  freePort,
  killAll,
  removeTempDirs,
  SLOW,
  STACK_FRAME,
  startPaydesk,
  tempDir,
} from './process.js';

afterEach(killAll);
afterAll(removeTempDirs);

const PASSWORD = 'pg-password-never-printed-7Rk2';

/** A TCP proxy to `target` that only starts listening on `port` when told to: a database coming up late. */
function lateProxy(port: number, target: { host: string; port: number }) {
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return {
    open: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('start-up while PostgreSQL is not there', () => {
  it(
    'waits, one clear line per attempt, then exits 1 with one line naming host and port, never the password',
    async () => {
      const port = await freePort();
      const p = await startPaydesk({
        cwd: await tempDir(),
        env: {
          DATABASE_URL: `postgres://paydesk:${PASSWORD}@127.0.0.1:${port}/paydesk`,
          DATABASE_WAIT_SECONDS: '2',
        },
      });
      expect(await p.exited).toEqual({ code: 1, signal: null });
      const waits = p
        .stdout()
        .split('\n')
        .filter((l) => l.includes('waiting for PostgreSQL'))
        .map((l) => JSON.parse(l));
      expect(waits.length).toBeGreaterThanOrEqual(2);
      expect(waits[0].msg).toBe(`waiting for PostgreSQL at 127.0.0.1:${port}… (attempt 1: ECONNREFUSED)`);
      const message = p.stderr().trim();
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toBe(
        `paydesk: PostgreSQL at 127.0.0.1:${port} did not answer within 2 s (ECONNREFUSED); set DATABASE_WAIT_SECONDS to wait longer`,
      );
      expect(p.stdout() + p.stderr()).not.toContain(PASSWORD);
      expect(message).not.toMatch(STACK_FRAME);
    },
    SLOW,
  );

  it.skipIf(!onPostgres)(
    'starts and serves as soon as PostgreSQL answers',
    async () => {
      const db = await freshDatabase();
      const real = new URL(db.url);
      const port = await freePort();
      const proxy = lateProxy(port, { host: real.hostname, port: Number(real.port || 5432) });
      const url = new URL(db.url);
      url.host = `127.0.0.1:${port}`;
      const p = await startPaydesk({ cwd: await tempDir(), env: { DATABASE_URL: url.toString() } });
      await p.waitForStdout(/waiting for PostgreSQL at 127\.0\.0\.1:\d+… \(attempt 2/);
      await proxy.open();
      await p.ready();
      expect((await api(p, 'GET', '/v1/health')).body.data.database).toBe('ok');
      expect(await p.stop()).toEqual({ code: 0, signal: null });
      await proxy.close();
      await db.drop();
    },
    SLOW,
  );
});
