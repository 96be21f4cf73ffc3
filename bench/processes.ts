import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

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
}): Promise<Child> {
  const log = openSync(options.logPath, 'w');
  const proc = spawn(process.execPath, options.args, { env: options.env, stdio: ['ignore', log, log] });
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

async function waitHealthy(child: Child, path: string, timeoutMs = 30_000): Promise<void> {
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
