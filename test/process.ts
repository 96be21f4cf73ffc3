import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
// Resolved here, not by the child: its cwd is a temp folder where `--import tsx` would not resolve.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

// The variables config.ts reads: the parent's values (a developer's shell, CI) must not leak into a child.
const PAYDESK_VARS =
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

/** Starts `node --import tsx src/main.ts`, as `npm start` does, in `cwd` with only the given Paydesk variables. */
export async function startPaydesk(options: {
  cwd: string;
  env?: Record<string, string>;
  port?: number;
}): Promise<PaydeskProcess> {
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (PAYDESK_VARS.test(name)) delete env[name];
  Object.assign(env, { HOST: '127.0.0.1', PORT: String(port) }, options.env);

  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
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
  return proc;
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

/** A port nobody listens on right now (the OS picks it; the child binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
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
