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
 * Kysely's PostgreSQL dialect over a `pg` pool, with one addition: queries built by statement.ts carry
 * a name and are sent as named prepared statements. Everything else is sent as Kysely's own driver
 * sends it. (Kysely's driver cannot pass a statement name through to pg.)
 */
export function postgresDialect(pool: pg.Pool): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PoolDriver(pool),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

class PoolConnection implements DatabaseConnection {
  constructor(readonly client: pg.PoolClient) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const values = [...query.parameters];
    const result = isNamed(query)
      ? await this.client.query({ name: query.statementName, text: query.sql, values })
      : await this.client.query(query.sql, values);
    const counted = ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(result.command);
    return {
      rows: result.rows as R[],
      ...(counted ? { numAffectedRows: BigInt(result.rowCount ?? 0) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; Kysely's interface requires the method
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries is not supported by this driver');
  }
}

class PoolDriver implements Driver {
  constructor(private readonly pool: pg.Pool) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PoolConnection(await this.pool.connect());
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
    (connection as PoolConnection).client.release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}
