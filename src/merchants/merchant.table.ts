import type { ColumnType, Selectable } from 'kysely';
import type { PaymentMethod } from '../networks/methods.js';

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
  /** The invoice currency: USD, USDT or USDC (contract §15). */
  currency: string;
  /** The first payment method's network (what `network` meant before payment methods). */
  network: string;
  /** The accepted methods, in the page's order: JSON text on the way in (pg writes arrays as SQL arrays). */
  payment_methods: ColumnType<PaymentMethod[], string, string>;
  /**
   * The single xpub of before payment methods; read only to file it under its family on start-up
   * (fileLegacyXpubs). Deposit addresses come from evm_xpub and tron_xpub.
   */
  xpub: string | null;
  evm_xpub: string | null;
  tron_xpub: string | null;
  /** Where EVM deposits are collected to (contract §16): with it, EVM deposit addresses are forwarders. */
  payout_address: string | null;
  /** The merchant's Solana wallet (contract §24): its token accounts receive Solana payments. */
  solana_address: ColumnType<string | null, string | null | undefined, string | null>;
  /** numeric(4,2), read as a decimal string: 0 to 50. */
  underpayment_tolerance_percent: ColumnType<string, string | undefined, string>;
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
