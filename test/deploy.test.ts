import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomBase62 } from '../src/ids.js';
import { adminQuery, onPostgres, TEST_DATABASE_URL } from './database.js';
import {
  api,
  freePort,
  killAll,
  type PaydeskProcess,
  removeTempDirs,
  SLOW,
  startPaydesk,
  tempDir,
} from './process.js';
import { eventually } from './webhooks.js';

// The files of deploy/ that docs/going-live.md installs, run here as the guide runs them: the
// systemd units checked by systemd itself, Caddy (Debian's, with its internal CA standing in for a
// public one) in front of two Paydesk instances on PostgreSQL, and the backup script with a restore.
const run = promisify(execFile);
const REPO = fileURLToPath(new URL('..', import.meta.url));
const DEPLOY = path.join(REPO, 'deploy');
const ADMIN_TOKEN = 'deploy-test-admin-token-7Kq2Wm9Xr';
const has = (bin: string) =>
  ['/usr/bin', '/usr/local/bin', '/bin'].some((d) => existsSync(path.join(d, bin)));

// The instances live across the tests of a describe block.
afterAll(killAll);
afterAll(removeTempDirs);

describe.skipIf(!has('systemd-analyze'))('the systemd units', () => {
  test('pass systemd-analyze verify, with the repository standing in for /opt/paydesk', async () => {
    const dir = await tempDir();
    const units = {
      'paydesk@3000.service': 'paydesk@.service',
      'paydesk-backup.service': 'paydesk-backup.service',
      'paydesk-backup.timer': 'paydesk-backup.timer',
    };
    for (const [name, source] of Object.entries(units)) {
      const text = await readFile(path.join(DEPLOY, source), 'utf8');
      await writeFile(path.join(dir, name), text.replaceAll('/opt/paydesk', REPO.replace(/\/$/, '')));
    }
    // verify exits non-zero and prints on stderr for any problem (unknown keys, missing binaries).
    const { stderr } = await run('systemd-analyze', [
      'verify',
      ...Object.keys(units).map((u) => path.join(dir, u)),
    ]);
    expect(stderr).toBe('');
  });
});

describe.skipIf(!onPostgres || !has('caddy'))(
  'Caddy with TLS in front of two instances on PostgreSQL',
  () => {
    const name = `paydesk_d_${randomBase62(10).toLowerCase()}`;
    const restored = `${name}_restored`;
    const urlOf = (db: string) =>
      Object.assign(new URL(TEST_DATABASE_URL ?? 'postgres://unused'), { pathname: `/${db}` }).toString();
    let caddy: ChildProcess | undefined;
    let httpsPort = 0;
    let ca = '';
    let instances: PaydeskProcess[] = [];

    beforeAll(async () => {
      await adminQuery(`create database ${name}`);
      const cwd = await tempDir();
      const env = {
        DATABASE_URL: urlOf(name),
        PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN,
        PAYDESK_TRUST_PROXY: '127.0.0.1',
        AUTH_FAILURE_LIMIT: '3',
      };
      const a = await startPaydesk({ cwd, env });
      await a.ready(); // the first one migrates; the second finds the schema done
      const b = await startPaydesk({ cwd, env });
      await b.ready();
      instances = [a, b];
      ({ caddy, httpsPort, ca } = await startCaddy(instances.map((p) => new URL(p.baseUrl).host)));
    }, SLOW);

    afterAll(async () => {
      caddy?.kill('SIGTERM');
      await adminQuery(`drop database if exists ${name} with (force)`);
      await adminQuery(`drop database if exists ${restored} with (force)`);
    });

    /** A request through Caddy over TLS, from a chosen loopback address (127.0.0.0/8 is all ours). */
    function viaCaddy(from: string, url: string, headers: Record<string, string> = {}, body?: unknown) {
      return new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = https.request(
          {
            host: '127.0.0.1',
            servername: 'localhost',
            port: httpsPort,
            path: url,
            method: body === undefined ? 'GET' : 'POST',
            localAddress: from,
            ca,
            headers: { host: `localhost:${httpsPort}`, 'content-type': 'application/json', ...headers },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (c: string) => {
              text += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || 'null') }));
          },
        );
        req.on('error', reject);
        req.end(body === undefined ? undefined : JSON.stringify(body));
      });
    }

    const logged = () => instances.map((p) => p.stdout()).join('\n');

    test('a request through TLS reaches an instance, which sees the client, not a forged header', async () => {
      const res = await viaCaddy('127.0.0.2', '/v1/health', { 'x-forwarded-for': '203.0.113.66' });
      expect(res.status).toBe(200);
      expect(res.body.data.database).toBe('ok');
      // Health is logged at debug (a monitor's poll); a merchant's call is one line at info.
      const call = await viaCaddy('127.0.0.2', '/v1/merchant/me', { 'x-forwarded-for': '203.0.113.66' });
      expect(call.status).toBe(401);
      await eventually(async () => /"client_address":"127\.0\.0\.2"/.test(logged()));
      expect(logged()).not.toMatch(/203\.0\.113\.66/);
    });

    let secret = '';
    let invoiceId = '';
    test('a client that guesses keys is locked out alone; others behind the same proxy are served', async () => {
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
      const account = await viaCaddy('127.0.0.4', '/v1/admin/accounts', admin, { name: 'Shop' });
      const project = await viaCaddy('127.0.0.4', '/v1/admin/projects', admin, {
        account_id: account.body.data.id,
        name: 'Shop',
      });
      const key = await viaCaddy(
        '127.0.0.4',
        `/v1/admin/projects/${project.body.data.id}/api-keys`,
        admin,
        {},
      );
      secret = key.body.data.secret;
      const good = { authorization: `Bearer ${secret}` };
      // Round robin: 8 guesses are 4 on each instance, past the limit of 3 on both (with or without Redis).
      for (let i = 0; i < 8; i++) {
        await viaCaddy('127.0.0.2', '/v1/merchant/me', {
          authorization: `Bearer svc_secret_${'x'.repeat(40)}`,
        });
      }
      for (let i = 0; i < 2; i++)
        expect((await viaCaddy('127.0.0.2', '/v1/merchant/me', good)).status).toBe(429);
      for (let i = 0; i < 2; i++)
        expect((await viaCaddy('127.0.0.3', '/v1/merchant/me', good)).status).toBe(200);
      const created = await viaCaddy('127.0.0.3', '/v1/merchant/invoices', good, { amount: '12.34' });
      expect(created.status).toBe(201);
      invoiceId = created.body.data.id;
    });

    test('an instance stopping (an upgrade, a crash) is not seen by clients: Caddy uses the other', async () => {
      await instances[0]?.stop('SIGTERM');
      const good = { authorization: `Bearer ${secret}` };
      for (let i = 0; i < 6; i++) {
        const res = await viaCaddy('127.0.0.5', `/v1/merchant/invoices/${invoiceId}`, good);
        expect([res.status, res.body?.data?.id]).toEqual([200, invoiceId]);
      }
    });

    test(
      'the backup script dumps the database, and a restore serves the same invoices',
      async () => {
        expect(invoiceId).not.toBe('');
        const dir = await tempDir();
        const { stdout } = await run(path.join(DEPLOY, 'paydesk-backup.sh'), [], {
          env: { ...process.env, DATABASE_URL: urlOf(name), PAYDESK_BACKUP_DIR: dir },
        });
        const file = stdout.trim();
        expect(path.dirname(file)).toBe(dir);
        expect(await readdir(dir)).toEqual([path.basename(file)]);
        await adminQuery(`create database ${restored}`);
        await run('pg_restore', ['--no-owner', `--dbname=${urlOf(restored)}`, file]);
        const p = await startPaydesk({
          cwd: await tempDir(),
          env: { DATABASE_URL: urlOf(restored), PAYDESK_ROLE: 'api' },
        });
        await p.ready();
        const res = await api(p, 'GET', `/v1/merchant/invoices/${invoiceId}`, secret);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ id: invoiceId, amount: '12.34', status: 'pending' });
      },
      SLOW,
    );
  },
);

/**
 * Caddy with deploy/paydesk.caddy, as docs/going-live.md installs it, under a test Caddyfile that
 * stands in for deploy/Caddyfile: the internal CA instead of a public one, free ports, no admin API.
 */
async function startCaddy(upstreams: string[]) {
  const dir = await tempDir();
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const caddyfile = path.join(dir, 'Caddyfile');
  await mkdir(path.join(dir, 'data'));
  await writeFile(
    caddyfile,
    `{\n\tlocal_certs\n\tskip_install_trust\n\tadmin off\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n\tstorage file_system ${dir}/data\n}\n\nimport ${DEPLOY}/paydesk.caddy\n`,
  );
  const caddy = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    env: {
      ...process.env,
      HOME: dir,
      PAYDESK_DOMAIN: `localhost:${httpsPort}`,
      PAYDESK_UPSTREAMS: upstreams.join(' '),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  caddy.stderr?.setEncoding('utf8').on('data', (c: string) => {
    log += c;
  });
  const root = path.join(dir, 'data', 'pki', 'authorities', 'local', 'root.crt');
  // Serving starts once the site's certificate, signed by the internal CA, is in storage.
  const site = path.join(dir, 'data', 'certificates', 'local', 'localhost', 'localhost.crt');
  await eventually(async () => existsSync(root) && existsSync(site), 30_000).catch(() => {
    throw new Error(`caddy did not start:\n${log}`);
  });
  const ca = await readFile(root, 'utf8');
  return { caddy, httpsPort, ca };
}
