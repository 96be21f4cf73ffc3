import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';

/** A server the benchmark started; its output goes to a log file, never to the terminal. */
export interface Child {
  name: string;
  process: ChildProcess;
  logPath: string;
  baseUrl: string;
}

const children = new Set<Child>();
const stopping = new Set<Child>();
const died: string[] = [];

/** Throws if a child exited without being asked to (crashed, or killed from outside). */
export function assertAllAlive(): void {
  if (died.length > 0) throw new Error(died.join('\n'));
}

// The same helper the process tests use.
export { freePort } from '../test/process.js';

export async function startChild(options: {
  name: string;
  args: string[];
  env: Record<string, string | undefined>;
  port: number;
  healthPath: string;
  logPath: string;
  /** Where the child runs (its relative paths: `dist/main.js`); this process's own by default. */
  cwd?: string | undefined;
}): Promise<Child> {
  const log = openSync(options.logPath, 'w');
  const proc = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const child = {
    name: options.name,
    process: proc,
    logPath: options.logPath,
    baseUrl: `http://127.0.0.1:${options.port}`,
  };
  children.add(child);
  proc.once('exit', (code, signal) => {
    // Still in the set: nobody asked it to stop, so the numbers measured from here on mean nothing.
    if (children.delete(child) && !stopping.has(child)) {
      died.push(`${child.name} exited during the run (code ${code}, signal ${signal}); see ${child.logPath}`);
    }
  });
  await waitHealthy(child, options.healthPath);
  return child;
}

async function waitHealthy(child: Child, path: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) break;
    try {
      const res = await fetch(child.baseUrl + path);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${child.name} did not become healthy; its log:\n${tail(child.logPath)}`);
}

export function tail(path: string, lines = 30): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** SIGTERM (a graceful shutdown, which also writes a --cpu-prof profile), SIGKILL if it hangs. */
export async function stopChild(child: Child, graceMs = 10_000): Promise<void> {
  const proc = child.process;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  stopping.add(child);
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c)));
}

/** Last resort when the orchestrator itself is exiting: no time for grace. */
export function killAllNow(): void {
  for (const c of children) c.process.kill('SIGKILL');
}

/** Resident set size of a process in bytes, from /proc (Linux only; undefined elsewhere). */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; keeps the maximum. */
export function sampleRss(pid: number, everyMs = 200) {
  let max = rssBytes(pid) ?? 0;
  const timer = setInterval(() => {
    max = Math.max(max, rssBytes(pid) ?? 0);
  }, everyMs);
  return {
    stop(): number {
      clearInterval(timer);
      return Math.max(max, rssBytes(pid) ?? 0);
    },
  };
}

/** Clock ticks per second of /proc's CPU times: 100 on every Linux this runs on. */
const TICKS = 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux only; 0 elsewhere); with
 * `reaped`, plus what its children that have exited used.
 */
export function cpuSeconds(pid: number, reaped = false): number {
  try {
    // The command name, in parentheses, may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const own = (f[11] ?? 0) + (f[12] ?? 0);
    return (reaped ? own + (f[13] ?? 0) + (f[14] ?? 0) : own) / TICKS;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by PostgreSQL: every live postgres process, plus the backends that have
 * exited (a pool closing idle connections), which the postmaster's reaped-children time holds.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') {
        total += cpuSeconds(Number(entry), true);
      }
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}

/**
 * The CPU a server and the database spend during a run, per request: unlike req/s, it hardly moves
 * when the machine is busy with something else, so it is the figure to compare across runs.
 */
export function sampleCpu(pid: number) {
  const start = { server: cpuSeconds(pid), database: postgresCpuSeconds() };
  return {
    stop(requests: number) {
      const per = (seconds: number) => (requests > 0 ? (seconds * 1e6) / requests : Number.NaN);
      return {
        serverUs: per(cpuSeconds(pid) - start.server),
        databaseUs: per(postgresCpuSeconds() - start.database),
      };
    },
  };
}
