import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface DirectoryLock {
  release(): void;
}

export class DirectoryLockedError extends Error {}

/**
 * Takes `<dir>.lock` beside the embedded database folder. PGlite would happily let two processes open
 * the same folder and corrupt it, so a second Paydesk on the same folder stops with a clear message.
 * A lock left behind by a process that no longer runs is taken over.
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
      if (Number.isInteger(holder) && isAlive(holder)) {
        throw new DirectoryLockedError(
          `The embedded database at ${path.relative(process.cwd(), dir) || dir} is in use by another Paydesk process (pid ${holder}). ` +
            'Stop that process, or point DATABASE_URL at another folder (pglite://<dir>) or at PostgreSQL (postgres://…).',
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DirectoryLockedError(`Could not take the lock file ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
