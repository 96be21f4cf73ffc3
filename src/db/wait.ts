import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';

export class DatabaseUnreachableError extends Error {}

export interface WaitOptions {
  /** Give up after this long (DATABASE_WAIT_SECONDS). */
  timeoutMs: number;
  log: FastifyBaseLogger;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Start-up on PostgreSQL waits for the server, as orchestrated deployments expect (a database and
 * the app started together, a database restarting): one clear line per attempt, backing off from
 * 0.5 s to 5 s, for up to `timeoutMs`. A server that answers but refuses us (a wrong password, a
 * missing database) is not waited for: that will not fix itself. The URL's credentials are never
 * printed: only host and port.
 */
export async function waitForPostgres(url: string, options: WaitOptions): Promise<void> {
  const where = hostAndPort(url);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const reason = await tryConnect(url);
    if (reason === undefined) {
      if (attempt > 1) options.log.info({ database: where }, `PostgreSQL at ${where} is up`);
      return;
    }
    const elapsed = Date.now() - started;
    if (elapsed >= options.timeoutMs) {
      throw new DatabaseUnreachableError(
        `PostgreSQL at ${where} did not answer within ${Math.round(options.timeoutMs / 1000)} s (${reason}); set DATABASE_WAIT_SECONDS to wait longer`,
      );
    }
    const delay = Math.min(5_000, 500 * 2 ** (attempt - 1), options.timeoutMs - elapsed);
    options.log.warn(
      { database: where, attempt, reason, retry_in_ms: delay },
      `waiting for PostgreSQL at ${where}… (attempt ${attempt}: ${reason})`,
    );
    await sleep(delay);
  }
}

/** Undefined when the server answered; otherwise why not, in a few words (never the URL). */
async function tryConnect(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (err) {
    if (!isDatabaseUnavailable(err)) {
      const code = (err as { code?: string }).code;
      throw new DatabaseUnreachableError(
        `PostgreSQL at ${hostAndPort(url)} refused the connection${code ? ` (${code})` : ''}: check DATABASE_URL`,
      );
    }
    const e = err as { code?: string; message?: string };
    return e.code ?? 'no answer';
  } finally {
    await client.end().catch(() => {});
  }
}

function hostAndPort(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '5432'}`;
  } catch {
    return 'the configured address';
  }
}
