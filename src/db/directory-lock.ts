import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface DirectoryLock {
  release(): void;
}

export class DirectoryLockedError extends Error {
  /** The pid of the process that holds the folder, when one does. */
  constructor(
    message: string,
    readonly holder?: number,
  ) {
    super(message);
  }
}

/**
 * Takes `<dir>.lock` beside the embedded database folder. PGlite would happily let two processes open
 * the same folder and corrupt it, so a second Paydesk on the same folder stops with a clear message.
 * A lock left behind by a process that no longer runs is taken over at once: one that has exited but
 * was not yet reaped by its parent (a zombie, as after `kill -9` under a supervisor that has not
 * collected it yet) counts as gone, and so does an unrelated process that was later given the same pid.
 */
export function lockDirectory(dir: string): DirectoryLock {
  const lockPath = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(lockPath, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holds(holder, lockPath)) {
        throw new DirectoryLockedError(
          `The embedded database at ${path.relative(process.cwd(), dir) || dir} is in use by another Paydesk process (pid ${holder}). ` +
            'Stop that process, or point DATABASE_URL at another folder (pglite://<dir>) or at PostgreSQL (postgres://…).',
          holder,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DirectoryLockedError(`Could not take the lock file ${lockPath}`);
}

/** Whether process `pid` is alive and is the one that wrote the lock file. */
function holds(pid: number, lockPath: string): boolean {
  const proc = linuxProcess(pid);
  if (proc === 'unknown') return signalable(pid);
  if (proc === undefined || proc.state === 'Z' || proc.state === 'X') return false;
  // A process that started after the lock file was written cannot have written it: its pid was reused.
  // (Start times are known to the clock tick; a second of slack keeps a live holder from ever losing.)
  return proc.startedAtMs <= statSync(lockPath).mtimeMs + 1_000;
}

interface LinuxProcess {
  /** R, S, D… ; Z is a zombie (exited, not yet reaped), X a process being torn down. */
  state: string;
  startedAtMs: number;
}

/**
 * What /proc says of a process: undefined when it does not exist, 'unknown' where there is no /proc
 * (macOS, Windows), so the caller falls back to asking the kernel whether the pid can be signalled.
 */
function linuxProcess(pid: number): LinuxProcess | undefined | 'unknown' {
  let stat: string;
  let boot: string;
  try {
    boot = readFileSync('/proc/stat', 'utf8');
  } catch {
    return 'unknown';
  }
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so fields count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const startTicks = Number(fields[19]);
  const bootSeconds = Number(/^btime (\d+)$/m.exec(boot)?.[1]);
  // The kernel's clock tick (USER_HZ) is 100 on every Linux architecture Node runs on.
  return { state: fields[0] ?? '', startedAtMs: (bootSeconds + startTicks / 100) * 1000 };
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
