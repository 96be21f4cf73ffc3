import {
  type Compilable,
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
} from 'kysely';
import type { Database } from './schema.js';

// A Kysely that can only compile: the hot statements are built with the typed query builder once, at
// load time, and each call then only binds its values.
const cold = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** The n-th value of a statement compiled with compileOnce. */
export const param = (n: number): RawBuilder<never> => sql.raw(`$${n}`);

/**
 * Compiles `build` once into a named prepared statement (see prepared.ts) whose values are bound by
 * position; `param(n)` marks where value n goes. Constants must be written into the SQL text: a
 * statement that would carry parameters of its own is refused at load time.
 */
export function compileOnce<R>(
  build: (db: Kysely<Database>) => Compilable<R> | RawBuilder<R>,
): (db: Kysely<Database>, values: readonly unknown[]) => Promise<R[]> {
  // Raw SQL needs the Kysely to compile against; query builders carry theirs and ignore the argument.
  const compiled = (build(cold) as RawBuilder<R>).compile(cold);
  if (compiled.parameters.length > 0) {
    throw new Error(`compileOnce: write constants into the SQL text, not as parameters: ${compiled.sql}`);
  }
  const text = `/*prepared*/ ${compiled.sql}`;
  return async (db, values) => (await db.executeQuery<R>(CompiledQuery.raw(text, [...values]))).rows;
}
