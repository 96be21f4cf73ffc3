import type { Actor, Change } from '../audit/audit.js';
import type { MailQueueing } from '../mail/queueing.js';
import type { Principal } from '../merchants/authenticate.js';

/** Who asks: a merchant's API key (checked live in the statement), or a dashboard user (audited). */
export type Requester =
  | { kind: 'api'; projectId: string; keyId: string; confirm(): Promise<void> }
  | { kind: 'dashboard'; projectId: string; change: Change };

export interface RefundContext {
  now: Date;
  publicBaseUrl: string;
  /** Set when e-mail is on (SMTP_URL): a new claim link is also mailed to the invoice's payer (contract §25). */
  mail?: MailQueueing | undefined;
}

/** The merchant API's caller as a requester. */
export const requester = (p: Principal): Requester => ({
  kind: 'api',
  projectId: p.projectId,
  keyId: p.keyId,
  confirm: () => p.confirm(),
});

/** The API key whose liveness the statement checks; none for the dashboard. */
export const keyOf = (who: Requester): string | undefined => (who.kind === 'api' ? who.keyId : undefined);

/** Who is audited: the dashboard's user, or the merchant API's key (by its public id, never its secret). */
export function changeOf(who: Requester, now: Date): Change {
  if (who.kind === 'dashboard') return who.change;
  const actor: Actor = { id: null, email: `api_key:${who.keyId}` };
  return { actor, now };
}

/** Nothing found: for the API, the key's own error first (a revoked key is told so, not NOT_FOUND). */
export async function notFoundFor(who: Requester): Promise<void> {
  if (who.kind === 'api') await who.confirm();
}
