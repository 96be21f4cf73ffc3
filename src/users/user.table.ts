import type { Generated, Selectable } from 'kysely';

export type Role = 'owner' | 'viewer';
export const ROLES = ['owner', 'viewer'] as const;

export interface DashboardUserTable {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  password_hash: string | null;
  totp_secret: string | null;
  totp_pending: string | null;
  /** The time step of the last code from the app accepted (migration 0020); none before. */
  totp_last_step: number | null;
  created_at: Date;
  last_sign_in_at: Date | null;
  removed_at: Date | null;
}

export interface DashboardInviteTable {
  token_hash: Buffer;
  user_id: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export interface DashboardSessionTable {
  token_hash: Buffer;
  user_id: string;
  csrf_token: string;
  project_id: string | null;
  needs_totp: Generated<boolean>;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

/** A two-factor recovery code (migration 0020): its SHA-256, used once. */
export interface DashboardRecoveryCodeTable {
  user_id: string;
  code_hash: Buffer;
  used_at: Date | null;
  created_at: Date;
}

/** A dashboard form sent once (migration 0008): where its result is, and a secret to show once there. */
export interface DashboardFormResultTable {
  session_hash: Buffer;
  once: string;
  location: string | null;
  sealed_secret: Buffer | null;
  created_at: Date;
}

export type DashboardUserRow = Selectable<DashboardUserTable>;

declare module '../db/schema.js' {
  interface Database {
    dashboard_users: DashboardUserTable;
    dashboard_invites: DashboardInviteTable;
    dashboard_sessions: DashboardSessionTable;
    dashboard_form_results: DashboardFormResultTable;
    dashboard_recovery_codes: DashboardRecoveryCodeTable;
  }
}
