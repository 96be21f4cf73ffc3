import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './process.js';

/**
 * A PostgreSQL server of this test's own, in a temporary folder, that the test may stop as an
 * operator or a crash would (`pg_ctl stop -m immediate`) and start again, without touching the
 * server every other test uses. It needs the server binaries and, as PostgreSQL refuses to run as
 * root, root's right to run them as the `postgres` user: `available` says whether this machine has both.
 */
export interface PrivatePostgres {
  /** A superuser URL for its `postgres` database. */
  readonly url: string;
  /** Stops at once: every backend is killed, no checkpoint, connections reset (a crash, a failover). */
  stopImmediately(): void;
  start(): void;
  remove(): void;
}

const BIN = (() => {
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort();
    const newest = versions[versions.length - 1];
    return newest ? `/usr/lib/postgresql/${newest}/bin` : undefined;
  } catch {
    return undefined;
  }
})();

export const privatePostgresAvailable = BIN !== undefined && process.getuid?.() === 0;

function asPostgres(command: string, args: string[]) {
  execFileSync('runuser', ['-u', 'postgres', '--', `${BIN}/${command}`, ...args], { stdio: 'pipe' });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!privatePostgresAvailable) throw new Error('no PostgreSQL binaries, or not root');
  const dir = mkdtempSync(path.join(tmpdir(), 'paydesk-pg-'));
  chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const start = () =>
    asPostgres('pg_ctl', ['-D', data, '-o', options, '-w', '-t', '60', '-l', path.join(dir, 'log'), 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stopImmediately: () => asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    remove() {
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}
