import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { DirectoryLockedError } from './db/directory-lock.js';
import { migrate } from './db/migrate.js';
import { type ResetResult, resetAccess } from './users/reset.js';

/**
 * The operator's command for dashboard users: `npm run users -- reset <email> [--remove-two-factor]`.
 * It reads the same environment as the server (DATABASE_URL, PUBLIC_BASE_URL, PORT), so the link it
 * prints points at the server. Exit codes: 0 done, 1 failed (unknown user, database), 2 wrong usage.
 */
const USAGE = `Usage: npm run users -- reset <email> [--remove-two-factor]

  reset   Prints a new one-time link (72 hours) for the dashboard user to set a password, ends all their
          sessions, and stops their old password and older links from working. Two-factor stays on
          unless --remove-two-factor is given (for a user who lost their phone and recovery codes).
`;

class CommandError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, email, ...flags] = argv;
  const removeTwoFactor = flags.includes('--remove-two-factor');
  if (command !== 'reset' || !email || flags.some((f) => f !== '--remove-two-factor')) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = await open(config.databaseUrl);
  try {
    await migrate(database.db);
    const result = await resetAccess(
      database.db,
      email,
      { removeTwoFactor },
      { now: new Date(), publicBaseUrl: config.publicBaseUrl },
    );
    if (!result) {
      throw new CommandError(
        `No dashboard user has the email ${JSON.stringify(email.trim())}. ` +
          'Check the spelling; a removed user cannot be reset: invite them again from the Team page.',
      );
    }
    process.stdout.write(report(result));
    return 0;
  } finally {
    await database.close();
  }
}

/**
 * The embedded database is one folder that one process may open at a time (db/directory-lock.ts):
 * while the server holds it, the command says so and what to do rather than wait or fail obscurely.
 */
async function open(url: string): Promise<DatabaseHandle> {
  if (url.startsWith('pglite://')) {
    const dir = url.slice('pglite://'.length);
    if (dir === 'memory' || dir === '' || !existsSync(path.join(path.resolve(dir), 'PG_VERSION'))) {
      throw new CommandError(
        `No embedded database at ${dir || '(memory)'}: run this command where Paydesk runs, with the same DATABASE_URL.`,
      );
    }
  }
  try {
    return await openDatabase(url, { bounds: null, poolMax: 1 });
  } catch (err) {
    if (!(err instanceof DirectoryLockedError)) throw err;
    const who = err.holder ? `the running Paydesk (pid ${err.holder})` : 'another process';
    throw new CommandError(
      `The embedded database (${url}) is in use by ${who}, and only one process may open it. ` +
        'Stop the server, run this command again, then start the server. ' +
        'On PostgreSQL (DATABASE_URL=postgres://…) this command works while the server runs.',
    );
  }
}

function report(r: ResetResult): string {
  const sessions = r.sessionsEnded === 1 ? '1 session' : `${r.sessionsEnded} sessions`;
  return [
    `Access reset for ${r.email}: ${sessions} ended; the old password and older links no longer work.`,
    'Send them this link to set a new password (it works once, for 72 hours):',
    '',
    `  ${r.inviteUrl}`,
    '',
    r.twoFactorKept
      ? 'Two-factor stays on: they sign in with a code from their app or a recovery code (--remove-two-factor turns it off).'
      : 'Two-factor is off for this user.',
    '',
  ].join('\n');
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    const known = err instanceof CommandError || err instanceof ConfigError;
    process.stderr.write(`paydesk users: ${known ? err.message : (err?.stack ?? err)}\n`);
    process.exitCode = 1;
  },
);
