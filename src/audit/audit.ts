import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import * as repo from './repository.js';

/** Who acts: a signed-in dashboard user, or the operator (the admin API, start-up seeding). */
export interface Actor {
  id: string | null;
  email: string;
}

export const OPERATOR: Actor = Object.freeze({ id: null, email: 'operator' });

/**
 * Who makes a change, and when. Every service function that changes something takes one, whichever
 * surface calls it (the admin API, the dashboard), and writes its audit row with it.
 */
export interface Change {
  readonly actor: Actor;
  readonly now: Date;
}

export function byOperator(now: Date): Change {
  return { actor: OPERATOR, now };
}

/**
 * What is audited (contract §13, §17): sign-ins, accounts, projects and their settings, keys, webhook
 * endpoints and deliveries, branding, users. Never a secret: `target` is an id, a name or an email.
 */
export type AuditAction =
  | 'user.signed_in'
  | 'user.sign_in_failed'
  | 'user.invited'
  | 'user.reinvited'
  | 'user.access_reset'
  | 'user.removed'
  | 'user.password_set'
  | 'user.totp_enabled'
  | 'user.totp_disabled'
  | 'user.recovery_code_used'
  | 'user.recovery_codes_renewed'
  | 'account.created'
  | 'account.activated'
  | 'account.deactivated'
  | 'project.created'
  | 'project.settings_changed'
  | 'project.branding_changed'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'webhook_endpoint.added'
  | 'webhook_endpoint.changed'
  | 'webhook_endpoint.disabled'
  | 'webhook_endpoint.enabled'
  | 'webhook_endpoint.deleted'
  | 'webhook_endpoint.secret_rolled'
  | 'webhook_endpoint.test_sent'
  | 'webhook_event.resent'
  | 'collection.requested'
  | 'refund.created'
  | 'refund.canceled'
  | 'refund.claim_link_renewed'
  | 'payment_link.created'
  | 'payment_link.changed'
  | 'till.created'
  | 'till.disabled';

/**
 * Writes an audit row. It takes a transaction, never the database handle: the row commits with the
 * change it records or not at all, so a change is never live without its row, nor a row without it.
 */
export function audit(
  tx: Transaction<Database>,
  accountId: string,
  change: Change,
  action: AuditAction,
  target: string | null,
) {
  return repo.insertAudit(tx, {
    account_id: accountId,
    actor_id: change.actor.id,
    actor_email: change.actor.email,
    action,
    target,
    created_at: change.now,
  });
}

export function auditLog(db: Kysely<Database>, accountId: string, limit = 100) {
  return repo.listAudit(db, accountId, limit);
}
