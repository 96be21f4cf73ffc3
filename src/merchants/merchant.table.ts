import type { Selectable } from 'kysely';

export type ActiveStatus = 'active' | 'inactive';

export interface AccountTable {
  id: string;
  name: string;
  status: ActiveStatus;
  created_at: Date;
  updated_at: Date;
}

export interface ProjectTable {
  id: string;
  account_id: string;
  name: string;
  status: ActiveStatus;
  currency: string;
  network: string;
  /** The extended public key deposit addresses come from; null on `sandbox`. */
  xpub: string | null;
  invoice_ttl_seconds: number;
  created_at: Date;
  updated_at: Date;
}

export interface ApiKeyTable {
  id: string;
  project_id: string;
  name: string;
  key_hash: Buffer;
  last4: string;
  status: 'active' | 'revoked';
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export type AccountRow = Selectable<AccountTable>;
export type ProjectRow = Selectable<ProjectTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;

declare module '../db/schema.js' {
  interface Database {
    accounts: AccountTable;
    projects: ProjectTable;
    api_keys: ApiKeyTable;
  }
}
