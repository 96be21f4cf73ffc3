import { createHash } from 'node:crypto';
import {
  type Compilable,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
} from 'kysely';
import type { NamedQuery } from './driver.js';
import type { Database } from './schema.js';

const names = new Set<string>();

/** One placeholder per named value: where the statement uses `p.id`, the value of `id` goes. */
export type Placeholders<P> = { readonly [K in keyof P]: RawBuilder<P[K]> };

export type Statement<P, R> = (db: Kysely<Database>, values: P) => Promise<R[]>;

// A Kysely that can only compile: hot statements are built once, when their module loads.
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * A statement on a hot path (create, get, the payment page's poll): built once with the typed query
 * builder (or `sql`), sent as a named prepared statement (see driver.ts), its values passed by name.
 *
 *   const find = statement('invoice_find', (p: Placeholders<{ id: string }>) =>
 *     db.selectFrom('invoices').selectAll().where('id', '=', p.id));
 *   await find(db, { id });
 *
 * Values must all come through placeholders: a constant written as a JavaScript value would be
 * compiled into the statement as a parameter of its own, so that is refused when the module loads.
 */
export function statement<P, R>(
  name: string,
  build: (p: Placeholders<P>, db: Kysely<Database>) => Compilable<R> | RawBuilder<R>,
): Statement<P, R> {
  const order: string[] = [];
  // Each name gets its position ($1, $2, …) the first time the builder uses it.
  const placeholders = new Proxy({} as Placeholders<P>, {
    get(_target, key) {
      if (typeof key !== 'string') return undefined;
      if (!order.includes(key)) order.push(key);
      return sql.raw(`$${order.indexOf(key) + 1}`);
    },
  });
  // Raw SQL compiles against the Kysely it is given; query builders carry theirs and ignore it.
  const compiled = (build(placeholders, compiler) as RawBuilder<R>).compile(compiler);
  if (names.has(name)) throw new Error(`statement ${name}: the name is taken`);
  names.add(name);
  if (compiled.parameters.length > 0) {
    throw new Error(`statement ${name}: pass every value through a placeholder (${compiled.sql})`);
  }
  return async (db, values) => {
    const query: NamedQuery = {
      ...compiled,
      parameters: order.map((key) => (values as Record<string, unknown>)[key]),
      statementName: name,
    };
    return (await db.executeQuery<R>(query)).rows;
  };
}

/**
 * A query whose text depends on its shape (a filter given or not), not on its values: each distinct
 * text is prepared once per connection, under a name derived from it. The shapes must be few (no
 * variable-length `in (…)` lists: use `= any($1)`), since a connection keeps every one it has seen.
 */
export async function executePrepared<R>(
  db: Kysely<Database>,
  query: Compilable<R> | RawBuilder<R>,
): Promise<R[]> {
  // Raw SQL compiles against the Kysely it is given; query builders carry theirs and ignore it.
  const compiled = (query as RawBuilder<R>).compile(db);
  return (await db.executeQuery<R>({ ...compiled, statementName: shapeName(compiled.sql) } as NamedQuery))
    .rows;
}

const shapeNames = new Map<string, string>();

function shapeName(text: string): string {
  let name = shapeNames.get(text);
  if (!name) {
    name = `shape_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    shapeNames.set(text, name);
  }
  return name;
}
