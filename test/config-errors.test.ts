import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { onPostgres } from './database.js';
import { killAll, removeTempDirs, SLOW, startPaydesk, tempDir } from './process.js';

const ADMIN_TOKEN = 'process-test-admin-token-5Yq8Lw2Rz';

afterEach(killAll);
afterAll(removeTempDirs);

// Runs once per CI run, in the PGlite run: a configuration refused at start-up opens no database, so the PostgreSQL run would repeat it unchanged.
describe.skipIf(onPostgres)('configuration errors', () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://paydesk:hunter2-db-password@db.internal/paydesk'],
    ['DATABASE_URL', 'sqlite:/var/lib/paydesk.db'],
  ])(
    'exits 1 on %s=%s with one readable line naming the variable, no stack and no secret',
    async (variable, value) => {
      const cwd = await tempDir();
      const p = await startPaydesk({ cwd, env: { [variable]: value, PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN } });
      const startedAt = Date.now();
      expect(await p.exited).toEqual({ code: 1, signal: null });
      expect(Date.now() - startedAt).toBeLessThan(15_000);

      const message = p.stderr().trim();
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toMatch(/^paydesk: /);
      expect(message).toContain(variable);
      expect(message).not.toMatch(/\bat .*:\d+:\d+/);
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain(ADMIN_TOKEN);
      expect(p.stdout()).toBe('');
      expect(existsSync(path.join(cwd, '.paydesk'))).toBe(false);
    },
    SLOW,
  );
});
