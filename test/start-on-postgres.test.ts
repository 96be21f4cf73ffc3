import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/ids.js';
import { TEST_REDIS_URL } from './app.js';
import { onPostgres, TEST_DATABASE_URL } from './database.js';
import { api, KEY, killAll, removeTempDirs, SLOW, startPaydesk, tempDir } from './process.js';

const ADMIN_TOKEN = 'process-test-admin-token-5Yq8Lw2Rz';

afterEach(killAll);
afterAll(removeTempDirs);

describe.skipIf(!onPostgres)('on PostgreSQL', () => {
  const name = `paydesk_p_${randomBase62(10).toLowerCase()}`;
  const url = new URL(TEST_DATABASE_URL ?? 'postgres://unused');
  url.pathname = `/${name}`;

  async function adminQuery(text: string) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  }

  // An empty database, not migrated: the two processes below race to migrate it.
  beforeAll(() => adminQuery(`create database ${name}`));
  afterAll(() => adminQuery(`drop database if exists ${name} with (force)`));

  it(
    'brings up two processes started together on an empty database, both serving, neither printing a demo key',
    async () => {
      const cwd = await tempDir();
      const env: Record<string, string> = { DATABASE_URL: url.toString(), PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN };
      if (TEST_REDIS_URL) env.REDIS_URL = TEST_REDIS_URL;
      const [a, b] = await Promise.all([startPaydesk({ cwd, env }), startPaydesk({ cwd, env })]);
      await Promise.all([a.ready(), b.ready()]);

      for (const p of [a, b]) {
        const health = await api(p, 'GET', '/v1/health');
        expect(health.status).toBe(200);
        expect(health.body.data.database).toBe('ok');
      }
      const account = await api(a, 'POST', '/v1/admin/accounts', ADMIN_TOKEN, { name: 'Shop' });
      const project = await api(b, 'POST', '/v1/admin/projects', ADMIN_TOKEN, {
        account_id: account.body.data.id,
        name: 'Shop',
      });
      const key = await api(
        a,
        'POST',
        `/v1/admin/projects/${project.body.data.id}/api-keys`,
        ADMIN_TOKEN,
        {},
      );
      const invoice = await api(b, 'POST', '/v1/merchant/invoices', key.body.data.secret, { amount: '3.10' });
      expect(invoice.status).toBe(201);
      const fetched = await api(
        a,
        'GET',
        `/v1/merchant/invoices/${invoice.body.data.id}`,
        key.body.data.secret,
      );
      expect(fetched.body.data.amount).toBe('3.10');

      const migrations = (await readdir(new URL('../migrations/', import.meta.url))).filter((f) =>
        f.endsWith('.sql'),
      );
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const applied = await client.query('select version from schema_migrations order by version');
      await client.end();
      expect(applied.rows.map((r) => `${r.version}.sql`)).toEqual(migrations.sort());

      expect(await Promise.all([a.stop(), b.stop()])).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
      for (const p of [a, b]) {
        expect(p.stdout()).not.toMatch(KEY);
        expect(p.stdout()).not.toContain('demo project');
      }
      expect(existsSync(path.join(cwd, '.paydesk'))).toBe(false);
    },
    SLOW,
  );
});
