import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as setImmediateP } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DirectoryLockedError, lockDirectory } from './directory-lock.js';

let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'paydesk-lock-'));
  dir = path.join(root, 'db');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not start a child process');
  return child.pid;
}

describe('lockDirectory', () => {
  test('a second lock on the same folder fails, naming the holder pid', () => {
    const lock = lockDirectory(dir);
    try {
      expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
      expect(() => lockDirectory(dir)).toThrow(DirectoryLockedError);
      expect(() => lockDirectory(dir)).toThrow(`pid ${process.pid}`);
    } finally {
      lock.release();
    }
  });

  test('a lock held by another live process is refused with that process named', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const pid = holder.pid as number;
      writeFileSync(`${dir}.lock`, String(pid));
      let error: unknown;
      try {
        lockDirectory(dir);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(DirectoryLockedError);
      expect((error as Error).message).toContain(`pid ${pid}`);
      expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(pid));
    } finally {
      holder.kill();
    }
  });

  test('takes over a stale lock file left by a process that no longer runs', () => {
    for (const stale of [String(deadPid()), '', 'garbage']) {
      writeFileSync(`${dir}.lock`, stale);
      const lock = lockDirectory(dir);
      expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
      lock.release();
    }
  });

  test('takes over a lock whose holder was killed but not yet reaped (a zombie)', async () => {
    // A child of a shell that then execs into `sleep`, which never reaps: once the child is killed it
    // stays a zombie, as a process does for a moment after kill -9 before its supervisor reaps it.
    const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: 'pipe' });
    try {
      const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
      const pid = Number.parseInt(chunk.toString(), 10);
      // Kill the child only once its parent is `sleep` (no longer the shell, which would reap it).
      while (readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() !== 'sleep') await setImmediateP();
      process.kill(pid, 'SIGKILL');
      while (!/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) await setImmediateP();
      expect(() => process.kill(pid, 0)).not.toThrow(); // the pid still exists: kill(0) alone says "alive"
      writeFileSync(`${dir}.lock`, String(pid));
      const lock = lockDirectory(dir);
      expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
      lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  test('takes over a lock whose pid now belongs to a process started after the lock was written', () => {
    // Our own parent (the test runner) started before this lock file was written: it cannot hold it.
    writeFileSync(`${dir}.lock`, String(process.ppid));
    utimesSync(`${dir}.lock`, new Date(0), new Date(0));
    const lock = lockDirectory(dir);
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  test('release removes the lock file, once, and the folder can be locked again', () => {
    const lock = lockDirectory(dir);
    lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);

    const again = lockDirectory(dir);
    lock.release(); // a second release of the old lock must not drop the new holder's file
    expect(existsSync(`${dir}.lock`)).toBe(true);
    again.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  test('folders are locked independently', () => {
    const a = lockDirectory(dir);
    const b = lockDirectory(path.join(root, 'other'));
    a.release();
    b.release();
  });
});
