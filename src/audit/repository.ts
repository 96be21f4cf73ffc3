import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AuditLogTable } from './audit.table.js';

type Db = Kysely<Database> | Transaction<Database>;

export function insertAudit(db: Db, row: Omit<AuditLogTable, 'id'>) {
  return db.insertInto('audit_log').values(row).execute();
}

export function listAudit(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
