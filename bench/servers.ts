import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Child, freePort, startChild } from './processes.js';

/** The two servers under load, each a child process of the benchmark. */

const adminToken = randomBytes(24).toString('hex');

/** The Authorization header of the operator's API on the Paydesk the benchmark started. */
export const adminAuth = () => `Bearer ${adminToken}`;

/**
 * What a user runs in production: `npm run serve` (the compiled build, with its node flags), read from
 * package.json so the two never drift. Falls back to tsx if the build fails.
 */
function paydeskCommand(root: string, profileDir: string | undefined): { args: string[]; runtime: string } {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  if (process.env.BENCH_RUNTIME !== 'tsx') {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
    const serve: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.serve;
    if (build.status === 0 && existsSync(path.join(root, 'dist', 'main.js'))) {
      return { args: [...profile, ...serve.split(' ').slice(1)], runtime: serve };
    }
    process.stdout.write(`npm run build failed; measuring tsx instead:\n${build.stdout}${build.stderr}\n`);
  }
  return { args: [...profile, '--import', 'tsx', 'src/main.ts'], runtime: 'node --import tsx src/main.ts' };
}

export async function startPaydesk(options: {
  root: string;
  results: string;
  databaseUrl: string;
  profile: boolean;
  /** More environment for the child (the rate sources' URLs). */
  env?: Record<string, string>;
}): Promise<{ child: Child; runtime: string }> {
  const { args, runtime } = paydeskCommand(
    options.root,
    options.profile ? path.join(options.results, 'profiles') : undefined,
  );
  const port = await freePort();
  const child = await startChild({
    name: 'paydesk',
    args,
    cwd: options.root,
    port,
    healthPath: '/v1/health',
    logPath: path.join(options.results, 'paydesk.log'),
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Raised, not removed: every request still goes through the limiter.
      RATE_LIMIT_MAX: '1000000000',
      PAYDESK_ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      REDIS_URL: process.env.BENCH_REDIS_URL,
      ...options.env,
    },
  });
  return { child, runtime };
}

/** Must start after Paydesk has migrated the database: the floor copies the `invoices` table. */
export async function startFloor(options: { results: string; databaseUrl: string }): Promise<Child> {
  const port = await freePort();
  return startChild({
    name: 'floor',
    args: ['--import', 'tsx', 'bench/floor.ts'],
    port,
    healthPath: '/health',
    logPath: path.join(options.results, 'floor.log'),
    env: { PATH: process.env.PATH, DATABASE_URL: options.databaseUrl, PORT: String(port) },
  });
}

export async function post(url: string, authorization: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: any; message?: string };
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${json.message}`);
  return json.data ?? json;
}

/** An account, a project and a key through the admin API; returns the merchant's Authorization value. */
export async function newMerchant(paydesk: Child, name: string, settings: object = {}) {
  const admin = `Bearer ${adminToken}`;
  const account = await post(`${paydesk.baseUrl}/v1/admin/accounts`, admin, { name });
  const project = await post(`${paydesk.baseUrl}/v1/admin/projects`, admin, {
    account_id: account.id,
    name,
    ...settings,
  });
  const key = await post(`${paydesk.baseUrl}/v1/admin/projects/${project.id}/api-keys`, admin, {});
  return { projectId: project.id as string, auth: `Bearer ${key.secret}` };
}
