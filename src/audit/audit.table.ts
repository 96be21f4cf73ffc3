import type { Generated, Selectable } from 'kysely';

/** Who changed what in an account, written in the same transaction as the change (contract §13, §17). */
export interface AuditLogTable {
  id: Generated<string>;
  account_id: string;
  actor_id: string | null;
  actor_email: string;
  action: string;
  target: string | null;
  created_at: Date;
}

export type AuditRow = Selectable<AuditLogTable>;

declare module '../db/schema.js' {
  interface Database {
    audit_log: AuditLogTable;
  }
}
