import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RateBook } from './book.js';

/**
 * The rate book serving an app, found by the app's database handle (as invoices/repository.ts keeps
 * one group-commit writer per handle): whoever opens it attaches it, and /v1/health and the metrics
 * read it without asking any source.
 */
const books = new WeakMap<Kysely<Database>, RateBook>();

export function attachRateBook(db: Kysely<Database>, book: RateBook): void {
  books.set(db, book);
}

export function rateBookOf(db: Kysely<Database>): RateBook | undefined {
  return books.get(db);
}
