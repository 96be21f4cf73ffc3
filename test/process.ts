import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import { openDatabase } from '../src/db/database.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
// Resolved here, not by the child: its cwd is a temp folder where `--import tsx` would not resolve.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

// The variables config.ts reads: the parent's values (a developer's shell, CI) must not leak into a child.
export const PAYDESK_VARS =
  /^(PORT|HOST|DATABASE_URL|PUBLIC_BASE_URL|REDIS_URL|LOG_LEVEL|RATE_LIMIT_.*|AUTH_FAILURE_.*|PAYDESK_.*)$/;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface PaydeskProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly baseUrl: string;
  readonly exited: Promise<Exit>;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches; rejects if the process exits first or time runs out. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves once the server logged that it listens. */
  ready(timeoutMs?: number): Promise<void>;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

const running = new Set<PaydeskProcess>();
const tempDirs: string[] = [];

/**
 * Starts Paydesk in `cwd` with only the given Paydesk variables: the run's build of src (test/build.ts)
 * under node, or `node --import tsx src/main.ts` exactly as `npm start` does.
 */
export async function startPaydesk(options: {
  cwd: string;
  env?: Record<string, string>;
  port?: number;
  /**
   * Start Paydesk under a shell that never reaps it (it execs into `sleep`): once killed, Paydesk stays
   * a zombie, as it does for a moment under any supervisor. `pid` is then Paydesk's, not the shell's.
   */
  underParentThatNeverReaps?: boolean;
  /** Another checkout's src/main.ts (bench/faults.ts runs the drill against an older commit), under tsx. */
  main?: string;
  /** `npm start`'s own command (tsx compiling src as it loads), not the run's build. */
  npmStart?: boolean;
  /** The build to run where inject() cannot tell (global-setup, which makes it). */
  build?: string | undefined;
}): Promise<PaydeskProcess> {
  const args = nodeArgs(options);
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (PAYDESK_VARS.test(name)) delete env[name];
  Object.assign(env, { HOST: '127.0.0.1', PORT: String(port) }, options.env);

  const command = options.underParentThatNeverReaps
    ? ['sh', ['-c', '"$0" "$@" & echo "paydesk-pid $!"; exec sleep 3600', process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(command[0] as string, command[1] as string[], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<Exit>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });

  const proc: PaydeskProcess = {
    child,
    pid: child.pid ?? -1,
    baseUrl: `http://127.0.0.1:${port}`,
    exited,
    stdout: () => out,
    stderr: () => err,
    async waitForStdout(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let exit: Exit | undefined;
      void exited.then((e) => {
        exit = e;
      });
      for (;;) {
        const match = out.match(pattern);
        if (match) return match;
        if (exit || Date.now() > deadline) {
          const why = exit ? `exited (${exit.code ?? exit.signal})` : `timed out after ${timeoutMs} ms`;
          throw new Error(`Paydesk ${why} before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async ready(timeoutMs) {
      await proc.waitForStdout(/"msg":"Server listening at /, timeoutMs);
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  if (options.underParentThatNeverReaps) {
    const [, pid] = await proc.waitForStdout(/paydesk-pid (\d+)/);
    return { ...proc, pid: Number(pid) };
  }
  return proc;
}

/**
 * Under vitest, the build global-setup made (as `npm run serve` runs dist/, with source maps); outside
 * it (bench/), another checkout's main, or when asked for `npm start`'s command, tsx.
 */
function nodeArgs(options: { main?: string; npmStart?: boolean; build?: string | undefined }): string[] {
  if (!options.build && (options.main || options.npmStart || !process.env.VITEST)) {
    return ['--import', TSX, options.main ?? MAIN];
  }
  // A test's Paydesk lives seconds: V8's optimising tiers cost it more than they win. --liftoff-only
  // for PGlite's WebAssembly (as in the test workers, vitest.config.ts); --no-opt for the JavaScript,
  // where TurboFan took about a fifth of a start's CPU (0.4 s of 1.9 s, measured). A test worker,
  // living a minute, gains from TurboFan (the suite took longer with --no-opt in the workers).
  return ['--enable-source-maps', '--liftoff-only', '--no-opt', options.build ?? inject('paydeskBuild')];
}

/** Kills every child still running: call from afterEach so a failed test leaves nothing behind. */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop('SIGKILL')));
}

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'paydesk-process-'));
  tempDirs.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(tempDirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/**
 * A port nobody listens on right now, for a child to bind a moment later. Drawn below Linux's
 * ephemeral range (32768 and up): a port the OS picked for `listen(0)` can be handed to any outgoing
 * connection (to PostgreSQL, Redis, a node) in the moment before the child binds it, which a loaded
 * machine did, and the child failed with EADDRINUSE. Below the range only another listener can take it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
  throw new Error('no free port between 20000 and 32000');
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Splits a shell command line the way sh would for the quoting our banner uses: single quotes
 * verbatim, double quotes with backslash escapes, and backslash-newline continuations.
 */
export function shellWords(command: string): string[] {
  const joined = command.replace(/\\\n/g, ' ');
  const words: string[] = [];
  for (const m of joined.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+)/g)) {
    words.push(m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3] ?? '');
  }
  return words;
}

/** A JSON call to a running Paydesk that must answer 2xx; returns the envelope's `data`. */
export async function callPaydesk(
  baseUrl: string,
  method: string,
  url: string,
  token: string,
  body?: object,
): Promise<any> {
  const res = await fetch(baseUrl + url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return (JSON.parse(text) as { data: unknown }).data;
}

// Each start of a child costs seconds (loading and compiling the route schemas, then PGlite's initdb
// on an empty folder), so the timeouts of the tests that start processes are generous.
export const SLOW = 180_000;
export const BANNER_PRINTED = /curl -s .*\n.*-d '[^']*'\n/;
export const KEY = /svc_secret_[A-Za-z0-9]+/;
export const STACK_FRAME = /^\s+at /m;

export function demoSecret(stdout: string): string {
  const key = stdout.match(KEY)?.[0];
  if (!key) throw new Error(`no demo key printed:\n${stdout}`);
  return key;
}

/** Turns the banner's curl line into a fetch call, so the test runs exactly what a newcomer pastes. */
export function curlAsFetch(stdout: string): [string, RequestInit] {
  const line = stdout.slice(stdout.indexOf('curl -s ')).split(/(?<!\\)\n/)[0] ?? '';
  const [command, ...args] = shellWords(line);
  if (command !== 'curl') throw new Error(`the banner's command is not curl: ${line}`);
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

export async function api(p: PaydeskProcess, method: string, url: string, token?: string, body?: unknown) {
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
export async function beginPost(baseUrl: string, secret: string, body: object) {
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

interface Template {
  dir: string;
  secret: string;
}
export type DemoTemplate = Template | { error: string };

let ownTemplate: Promise<Template> | undefined;

/**
 * A folder holding an embedded database that `npm start` has already created, with its demo project,
 * copied afresh for each caller: a start on it skips PGlite's initdb (several seconds). The template
 * is made once per run by global-setup, with the real entry point, so it is exactly what a first
 * start leaves. Should that have failed, this worker makes one of its own; a failed attempt is not
 * cached, so the next caller tries again.
 */
export async function demoFolder(): Promise<{ cwd: string; secret: string; lockFile: string }> {
  let template = inject('demoTemplate');
  if ('error' in template) {
    ownTemplate ??= tempDir().then((dir) => makeDemoTemplate(dir));
    ownTemplate.catch(() => {
      ownTemplate = undefined;
    });
    template = await ownTemplate;
  }
  const { dir, secret } = template;
  const cwd = await mkdtemp(path.join(tmpdir(), 'paydesk-process-'));
  tempDirs.push(cwd);
  await cp(path.join(dir, '.paydesk'), path.join(cwd, '.paydesk'), { recursive: true });
  return { cwd, secret, lockFile: path.join(cwd, '.paydesk', 'db.lock') };
}

/** `npm start`'s first start in `dir` (empty): the demo folder's template and its demo key. */
export async function makeDemoTemplate(dir: string, build?: string): Promise<Template> {
  const first = await startPaydesk({ cwd: dir, build });
  try {
    await first.waitForStdout(BANNER_PRINTED);
  } finally {
    await first.stop();
  }
  const exit = await first.exited;
  if (exit.code !== 0) throw new Error(`the template's first start exited ${exit.code ?? exit.signal}`);
  return { dir, secret: demoSecret(first.stdout()) };
}

/**
 * The ids of the invoices a stopped Paydesk left in its embedded database at `cwd`, read in this
 * process: what it committed, without the seconds a restart costs.
 */
export async function storedInvoiceIds(cwd: string): Promise<string[]> {
  const database = await openDatabase(`pglite://${path.join(cwd, '.paydesk', 'db')}`);
  try {
    const rows = await database.db.selectFrom('invoices').select('id').orderBy('id').execute();
    return rows.map((r) => r.id);
  } finally {
    await database.close();
  }
}
