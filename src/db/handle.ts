import type { Kysely } from 'kysely';
import { type DatabaseBounds, DEFAULT_BOUNDS } from './bounds.js';
import type { Notifier } from './notifier.js';
import type { Database } from './schema.js';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * The database behind one interface: Kysely over a `pg` pool, whose connections go either to a real
 * PostgreSQL server or to an embedded PGlite instance. Everything above this file runs the same SQL on both.
 */
export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly kind: DatabaseKind;
  /** True when this process created a brand-new embedded database (the demo seed keys off this). */
  readonly isNewEmbedded: boolean;
  readonly notifier: Notifier;
  /** The bounds this handle enforces (undefined: none, as for migrations). */
  readonly bounds: DatabaseBounds | undefined;
  close(): Promise<void>;
}

export const boundsByDb = new WeakMap<Kysely<Database>, DatabaseBounds>();

/**
 * The bounds of the handle a Kysely instance belongs to, for code that waits on the database in ways of
 * its own (a group commit's queue); the defaults for an instance made elsewhere.
 */
export function boundsOf(db: Kysely<Database>): DatabaseBounds {
  return boundsByDb.get(db) ?? DEFAULT_BOUNDS;
}
