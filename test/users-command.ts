import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { PAYDESK_VARS } from './process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs `npm run users -- <args>` in the checkout, exactly as an operator types it, with only the given
 * Paydesk variables (the parent's DATABASE_URL and friends must not leak in). With `fromBuild`, the
 * same source from the run's build (test/build.ts) under node: tsx's compile costs each run seconds.
 */
export async function usersCommand(args: string[], env: Record<string, string>, fromBuild = false) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(childEnv)) if (PAYDESK_VARS.test(name)) delete childEnv[name];
  Object.assign(childEnv, env);
  const built = path.join(path.dirname(inject('paydeskBuild')), 'users-command.js');
  const [command, argv] = fromBuild
    ? [process.execPath, ['--enable-source-maps', '--liftoff-only', '--no-opt', built, ...args]]
    : ['npm', ['run', '--silent', 'users', '--', ...args]];
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** The one-time link a reset printed, as a path on the server. */
export function linkPath(stdout: string): string {
  const url = /https?:\/\/\S+\/dashboard\/invite\/[A-Za-z0-9_-]{43}/.exec(stdout)?.[0];
  if (!url) throw new Error(`no link printed:\n${stdout}`);
  return new URL(url).pathname;
}
