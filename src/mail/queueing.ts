import type { SecretKey } from '../secrets/key.js';
import type { MailSettings } from './settings.js';

/** Mail is on; the key that seals claim links at rest, when the instance has one (src/secrets). */
export interface MailQueueing {
  key: SecretKey | undefined;
}

/**
 * What a request that makes a claim link passes to the refunds service: undefined when mail is off
 * (nothing is queued). The key is asked for only then.
 */
export function mailQueueing(
  settings: MailSettings | undefined,
  secretKey: () => SecretKey | undefined,
): MailQueueing | undefined {
  return settings ? { key: secretKey() } : undefined;
}
