import type { SecretKey } from '../secrets/key.js';
import { isSealed, SealError, unseal } from '../secrets/seal.js';
import type { ClaimedMail } from './delivery.repository.js';
import { claimSealContext } from './queue.repository.js';

/**
 * The claim link of a refund's mail, opened: sealed links need this instance's key (the same on every
 * instance, PAYDESK_ENCRYPTION_KEY). A link that does not open is an error for the operator, never
 * a mail without its link.
 */
export function openClaimUrl(mail: ClaimedMail, key: SecretKey | undefined): string | null {
  const stored = mail.claim_url;
  if (stored === null || !isSealed(stored)) return stored;
  if (!key) throw new SealError('A claim link was sealed, and this instance has no PAYDESK_ENCRYPTION_KEY');
  return unseal(key, stored, claimSealContext(mail.refund_id ?? ''));
}
