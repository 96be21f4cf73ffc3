import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { onPostgres } from './database.js';
import { api, demoFolder, KEY, killAll, removeTempDirs, SLOW, STACK_FRAME, startPaydesk } from './process.js';

afterEach(killAll);
afterAll(removeTempDirs);

// Runs once per CI run, in the PGlite run: the folder lock is the embedded database's, so the PostgreSQL run would repeat it unchanged.
describe.skipIf(onPostgres)('the embedded database folder lock', () => {
  it(
    'stops a second process on the same folder within seconds, naming the pid that holds it, and leaves the first serving',
    async () => {
      const { cwd, lockFile } = await demoFolder();
      const first = await startPaydesk({ cwd });
      await first.ready();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(first.pid));

      const startedAt = Date.now();
      const second = await startPaydesk({ cwd });
      const exit = await second.exited;
      expect(exit.code).toBe(1);
      expect(Date.now() - startedAt).toBeLessThan(15_000);
      expect(second.stderr()).toContain(`in use by another Paydesk process (pid ${first.pid})`);
      expect(second.stderr().trim().split('\n')).toHaveLength(1);
      expect(second.stderr()).not.toMatch(STACK_FRAME);
      expect(second.stdout()).not.toMatch(KEY);

      expect(readFileSync(lockFile, 'utf8')).toBe(String(first.pid));
      expect((await api(first, 'GET', '/v1/health')).status).toBe(200);
    },
    SLOW,
  );

  it(
    'takes over at once the lock of a process killed with -9, even while it is a zombie its parent has not reaped; keeps the data and prints no new key',
    async () => {
      const { cwd, secret, lockFile } = await demoFolder();
      const zombie = /^\d+ \(.*\) Z /;
      const first = await startPaydesk({ cwd, underParentThatNeverReaps: true });
      await first.ready();
      expect(readFileSync(lockFile, 'utf8')).toBe(String(first.pid));
      process.kill(first.pid, 'SIGKILL');
      while (!zombie.test(readFileSync(`/proc/${first.pid}/stat`, 'utf8'))) {
        await new Promise((r) => setImmediate(r));
      }
      expect(existsSync(lockFile)).toBe(true);

      const second = await startPaydesk({ cwd });
      await second.ready();
      // Still a zombie while the second start took the lock: a supervisor restarting at once succeeds.
      expect(zombie.test(readFileSync(`/proc/${first.pid}/stat`, 'utf8'))).toBe(true);
      expect(readFileSync(lockFile, 'utf8')).toBe(String(second.pid));
      expect((await api(second, 'GET', '/v1/merchant/me', secret)).status).toBe(200);
      expect(await second.stop()).toEqual({ code: 0, signal: null });
      expect(second.stdout()).not.toMatch(KEY);
    },
    SLOW,
  );
});
