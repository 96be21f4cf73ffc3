import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/ids.js';
import { demoBanner } from '../src/merchants/demo.js';
import { TEST_REDIS_URL } from './app.js';
import { onPostgres, TEST_DATABASE_URL } from './database.js';
import {
  killAll,
  type PaydeskProcess,
  removeTempDirs,
  shellWords,
  startPaydesk,
  tempDir,
} from './process.js';

// These tests run the real entry point as `npm start` does; each start of a child costs seconds
// (tsx, then PGlite's initdb), so the timeouts are generous.
const SLOW = 180_000;
const ADMIN_TOKEN = 'process-test-admin-token-5Yq8Lw2Rz';
const BANNER_PRINTED = /curl -s .*\n.*-d '[^']*'\n/;
const KEY = /svc_secret_[A-Za-z0-9]+/;
const STACK_FRAME = /^\s+at /m;

afterEach(killAll);
afterAll(removeTempDirs);

function demoSecret(stdout: string): string {
  const key = stdout.match(KEY)?.[0];
  if (!key) throw new Error(`no demo key printed:\n${stdout}`);
  return key;
}

/** Turns the banner's curl line into a fetch call, so the test runs exactly what a newcomer pastes. */
function curlAsFetch(stdout: string): [string, RequestInit] {
  const line = stdout.slice(stdout.indexOf('curl -s ')).split(/(?<!\\)\n/)[0] ?? '';
  const [command, ...args] = shellWords(line);
  expect(command).toBe('curl');
  let url = '';
  const init: RequestInit & { headers: Record<string, string> } = { method: 'GET', headers: {} };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-s') continue;
    if (arg === '-H') {
      const [name, ...value] = (args[++i] ?? '').split(':');
      init.headers[name ?? ''] = value.join(':').trim();
    } else if (arg === '-d') {
      init.method = 'POST';
      init.body = args[++i] ?? '';
    } else if (arg.startsWith('-')) {
      throw new Error(`unexpected curl option ${arg}`);
    } else {
      url = arg;
    }
  }
  return [url, init];
}

async function api(p: PaydeskProcess, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${p.baseUrl}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/**
 * Opens a POST whose headers the server has read and routed (it answered `100 Continue`) but whose
 * body is still to come: a request that is certainly in flight, without sleeping on a guess.
 */
async function beginPost(baseUrl: string, secret: string, body: object) {
  const payload = JSON.stringify(body);
  const req = http.request(`${baseUrl}/v1/merchant/invoices`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload),
      expect: '100-continue',
    },
  });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      res.on('error', reject);
    });
  });
  response.catch(() => {});
  req.flushHeaders();
  await once(req, 'continue');
  return () => {
    req.end(payload);
    return response;
  };
}

describe('quick start (npm start on an empty folder)', () => {
  it(
    'creates ./.paydesk/db, prints a working demo key once with a curl line that creates an invoice, and no key on restart',
    async () => {
      const cwd = await tempDir();
      const first = await startPaydesk({ cwd });
      await first.waitForStdout(BANNER_PRINTED);
      const secret = demoSecret(first.stdout());

      // The whole banner appears exactly once, and the key appears nowhere outside it.
      const banner = demoBanner(secret, first.baseUrl);
      expect(first.stdout().split(banner)).toHaveLength(2);
      expect(first.stdout().replace(banner, '')).not.toMatch(KEY);
      expect(existsSync(path.join(cwd, '.paydesk', 'db', 'PG_VERSION'))).toBe(true);

      const me = await api(first, 'GET', '/v1/merchant/me', secret);
      expect(me.status).toBe(200);
      expect(me.body.data.project).toMatchObject({ status: 'active', network: 'sandbox' });
      expect(me.body.data.api_key.last4).toBe(secret.slice(-4));

      const [url, init] = curlAsFetch(first.stdout());
      expect(url).toBe(`${first.baseUrl}/v1/merchant/invoices`);
      const created = await fetch(url, init);
      expect(created.status).toBe(201);
      const invoice = ((await created.json()) as any).data;
      expect(invoice).toMatchObject({ status: 'pending', amount: '10.50', order_id: 'order-1' });
      expect(created.headers.get('location')).toBe(`/v1/merchant/invoices/${invoice.id}`);
      expect(await first.stop()).toEqual({ code: 0, signal: null });

      const second = await startPaydesk({ cwd });
      await second.ready();
      const again = await api(second, 'GET', `/v1/merchant/invoices/${invoice.id}`, secret);
      expect(again.status).toBe(200);
      expect(again.body.data.order_id).toBe('order-1');
      expect(await second.stop()).toEqual({ code: 0, signal: null });
      expect(second.stdout()).not.toMatch(KEY);
      expect(second.stdout()).not.toContain('demo project');
    },
    SLOW,
  );
});

describe('the embedded database folder lock', () => {
  it(
    'stops a second process on the same folder within seconds, naming the pid that holds it, and leaves the first serving',
    async () => {
      const dir = await tempDir();
      const env = { DATABASE_URL: `pglite://${dir}/db` };
      const first = await startPaydesk({ cwd: dir, env });
      await first.ready();
      const lockFile = path.join(dir, 'db.lock');
      expect(readFileSync(lockFile, 'utf8')).toBe(String(first.pid));

      const startedAt = Date.now();
      const second = await startPaydesk({ cwd: dir, env });
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
    'takes over a lock file left by a killed process, keeps the data and prints no new key',
    async () => {
      const dir = await tempDir();
      const env = { DATABASE_URL: `pglite://${dir}/db` };
      const first = await startPaydesk({ cwd: dir, env });
      await first.waitForStdout(BANNER_PRINTED);
      const secret = demoSecret(first.stdout());
      expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');
      expect(existsSync(path.join(dir, 'db.lock'))).toBe(true);

      const second = await startPaydesk({ cwd: dir, env });
      await second.ready();
      expect(readFileSync(path.join(dir, 'db.lock'), 'utf8')).toBe(String(second.pid));
      expect((await api(second, 'GET', '/v1/merchant/me', secret)).status).toBe(200);
      expect(await second.stop()).toEqual({ code: 0, signal: null });
      expect(second.stdout()).not.toMatch(KEY);
    },
    SLOW,
  );
});

describe('graceful shutdown', () => {
  it(
    'answers in-flight requests normally after SIGTERM, turns new ones away, exits 0 within 10 s and removes the lock file',
    async () => {
      const dir = await tempDir();
      const env = { DATABASE_URL: `pglite://${dir}/db` };
      const server = await startPaydesk({ cwd: dir, env });
      await server.waitForStdout(BANNER_PRINTED);
      const secret = demoSecret(server.stdout());
      const lockFile = path.join(dir, 'db.lock');
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
      const restarted = await startPaydesk({ cwd: dir, env });
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

describe('configuration errors', () => {
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

describe('logs', () => {
  it(
    'are JSON lines outside the banner, tagged with the trace id, and never contain a key, a token or a secret',
    async () => {
      const cwd = await tempDir();
      const server = await startPaydesk({ cwd, env: { PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN } });
      await server.waitForStdout(BANNER_PRINTED);
      const demo = demoSecret(server.stdout());
      const unknownKey = `svc_secret_${randomBase62(40)}`;
      const wrongAdminToken = `wrong-admin-token-${randomBase62(16)}`;

      const me = await api(server, 'GET', '/v1/merchant/me', demo);
      expect(me.status).toBe(200);
      expect((await api(server, 'GET', '/v1/merchant/me', unknownKey)).status).toBe(401);
      expect((await api(server, 'GET', '/v1/merchant/me', `${demo}x`)).status).toBe(401);
      expect((await api(server, 'POST', '/v1/admin/accounts', wrongAdminToken, { name: 'x' })).status).toBe(
        401,
      );
      const account = await api(server, 'POST', '/v1/admin/accounts', ADMIN_TOKEN, { name: 'Logged shop' });
      const project = await api(server, 'POST', '/v1/admin/projects', ADMIN_TOKEN, {
        account_id: account.body.data.id,
        name: 'Logged shop',
      });
      const issued = await api(
        server,
        'POST',
        `/v1/admin/projects/${project.body.data.id}/api-keys`,
        ADMIN_TOKEN,
        {},
      );
      const secret: string = issued.body.data.secret;
      expect((await api(server, 'POST', '/v1/merchant/invoices', secret, { amount: '1.00' })).status).toBe(
        201,
      );
      expect((await api(server, 'POST', '/v1/merchant/invoices', secret, { amount: 1 })).status).toBe(422);
      expect((await api(server, 'GET', '/v1/nowhere', secret)).status).toBe(404);
      expect(await server.stop()).toEqual({ code: 0, signal: null });

      const logText = server.stdout().replace(demoBanner(demo, server.baseUrl), '');
      const lines = logText.split('\n').filter((l) => l !== '');
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const record of records) {
        expect(record).toMatchObject({
          level: expect.any(Number),
          time: expect.any(Number),
          msg: expect.any(String),
        });
      }
      const traceId = me.headers.get('x-trace-id');
      expect(records.filter((r) => r.trace_id === traceId).length).toBeGreaterThanOrEqual(2);

      for (const leak of [demo, unknownKey, `${demo}x`, secret, ADMIN_TOKEN, wrongAdminToken]) {
        expect(server.stdout().replace(demoBanner(demo, server.baseUrl), '')).not.toContain(leak);
        expect(server.stderr()).not.toContain(leak);
      }
      // At most the redacted form (svc_secret_… plus the last 4 characters) may appear.
      expect(logText).not.toMatch(/svc_secret_[A-Za-z0-9]{5,}/);
    },
    SLOW,
  );
});
