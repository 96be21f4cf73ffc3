import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { DatabaseTimeoutError, destroyConnection } from './bounds.js';
import { isDatabaseUnavailable } from './errors.js';

/**
 * A compiled query that asks to run as a named prepared statement: PostgreSQL parses and plans it
 * once per connection instead of on every call. Its SQL text must never change (see statement.ts).
 */
export interface NamedQuery extends CompiledQuery {
  readonly statementName: string;
}

function isNamed(query: CompiledQuery): query is NamedQuery {
  return typeof (query as Partial<NamedQuery>).statementName === 'string';
}

/**
 * Bounds on what one checkout of a connection may take (src/db/bounds.ts). `statementMs` is armed
 * only where a wait can be cut short: on PostgreSQL, by destroying the socket. Embedded PGlite runs
 * each statement on this thread, so nothing can hang there between statements; waiting for its one
 * connection is bounded by the pool's own timeout.
 */
export interface CheckoutBounds {
  readonly statementMs: number | undefined;
}

/**
 * Kysely's PostgreSQL dialect over a `pg` pool, with two additions: queries built by statement.ts
 * carry a name and are sent as named prepared statements (Kysely's driver cannot pass a name through
 * to pg), and every checkout of a connection has a deadline (contract §20).
 */
export function postgresDialect(pool: pg.Pool, bounds: CheckoutBounds = { statementMs: undefined }): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PoolDriver(pool, bounds),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/**
 * One checked-out connection. Its deadline covers the checkout as a whole: one statement, or a whole
 * transaction (Kysely holds one checkout from BEGIN to COMMIT). Past it the socket is destroyed, so the
 * statement in flight fails at once, whatever the server is doing (or not doing).
 */
class PoolConnection implements DatabaseConnection {
  /** Set when this connection must not go back to the pool: it timed out or lost its socket. */
  broken = false;
  private expired = false;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    readonly client: pg.PoolClient,
    private readonly statementMs: number | undefined,
    onExpired: () => void,
  ) {
    if (statementMs !== undefined) {
      this.timer = setTimeout(() => {
        this.expired = true;
        this.broken = true;
        destroyConnection(client);
        onExpired();
      }, statementMs);
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const values = [...query.parameters];
    let result: pg.QueryResult;
    try {
      result = isNamed(query)
        ? await this.client.query({ name: query.statementName, text: query.sql, values })
        : await this.client.query(query.sql, values);
    } catch (err) {
      if (this.expired) {
        throw new DatabaseTimeoutError(`the database did not answer within ${this.statementMs} ms`);
      }
      if (isDatabaseUnavailable(err)) this.broken = true;
      throw err;
    }
    const counted = ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(result.command);
    return {
      rows: result.rows as R[],
      ...(counted ? { numAffectedRows: BigInt(result.rowCount ?? 0) } : {}),
    };
  }

  release(): void {
    clearTimeout(this.timer);
    // A broken connection is destroyed, never handed to the next request.
    this.client.release(this.broken ? new Error('connection discarded') : undefined);
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; Kysely's interface requires the method
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries is not supported by this driver');
  }
}

class PoolDriver implements Driver {
  /**
   * Bumped whenever a checkout times out. A silent database usually silences every connection at
   * once, and an idle connection cannot tell: so connections that were opened before the timeout are
   * not trusted again. Each is replaced by a new one as it is next taken from the pool, and the
   * instance serves again as soon as the database does, instead of waiting out each stale connection.
   */
  private generation = 0;
  private readonly born = new WeakMap<pg.PoolClient, number>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly bounds: CheckoutBounds,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    for (;;) {
      const client = await this.pool.connect();
      const born = this.born.get(client);
      if (born === undefined) this.born.set(client, this.generation);
      else if (born < this.generation) {
        client.release(new Error('opened before a timeout: not trusted'));
        continue;
      }
      return new PoolConnection(client, this.bounds.statementMs, () => {
        this.generation++;
      });
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    const mode = settings.accessMode ? ` ${settings.accessMode}` : '';
    await connection.executeQuery(CompiledQuery.raw(`start transaction${isolation}${mode}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PoolConnection).release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}
