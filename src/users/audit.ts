import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import * as repo from './repository.js';

/** Who acts: a signed-in user, or the operator (admin API, start-up seeding). */
export interface Actor {
  id: string | null;
  email: string;
}

export const OPERATOR: Actor = { id: null, email: 'operator' };

/**
 * What is audited (contract §13): sign-ins, keys created and revoked, endpoints added, enabled and
 * disabled, secrets rolled, settings changed, users invited and removed, passwords set. Never a secret:
 * `target` is an id or an email.
 */
export type AuditAction =
  | 'user.signed_in'
  | 'user.sign_in_failed'
  | 'user.invited'
  | 'user.removed'
  | 'user.password_set'
  | 'user.totp_enabled'
  | 'user.totp_disabled'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'webhook_endpoint.added'
  | 'webhook_endpoint.disabled'
  | 'webhook_endpoint.enabled'
  | 'webhook_endpoint.secret_rolled'
  | 'webhook_endpoint.test_sent'
  | 'webhook_event.resent'
  | 'project.settings_changed'
  | 'project.branding_changed';

export function audit(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
  actor: Actor,
  action: AuditAction,
  target: string | null,
  now: Date,
) {
  return repo.insertAudit(db, {
    account_id: accountId,
    actor_id: actor.id,
    actor_email: actor.email,
    action,
    target,
    created_at: now,
  });
}

export function auditLog(db: Kysely<Database>, accountId: string, limit = 100) {
  return repo.listAudit(db, accountId, limit);
}
