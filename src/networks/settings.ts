import type { FieldError } from '../http/errors.js';
import { type Currency, type NetworkRegistry, SANDBOX } from './network.js';
import { parseXpub } from './xpub.js';

export interface PaymentSettings {
  network: string;
  currency: string;
  xpub: string | null;
}

/**
 * A project's network, currency and xpub are checked together (on create and on every change), so a
 * project on a chain always has a token for its currency and a key to derive addresses from.
 */
export function paymentSettingsErrors(networks: NetworkRegistry, s: PaymentSettings): FieldError[] {
  const error = (field: string, rule: string, message: string): FieldError[] => [
    { in: 'body', field, rule, message },
  ];
  if (s.network === SANDBOX) {
    return s.xpub === null
      ? []
      : error('xpub', 'not_allowed', 'sandbox payments are simulated: a sandbox project takes no xpub');
  }
  const network = networks.get(s.network);
  if (!network) {
    const known = [SANDBOX, ...networks.all().map((n) => n.name)].join(', ');
    return error('network', 'enum', `network must be one of: ${known}`);
  }
  if (!networks.token(network.name, s.currency as Currency)) {
    const offered = Object.keys(network.tokens).join(', ') || 'none configured';
    return error(
      'currency',
      'unsupported',
      `${s.currency} is not available on ${network.name} (offered: ${offered})`,
    );
  }
  if (s.xpub === null) {
    return error(
      'xpub',
      'required',
      `a project on ${network.name} needs the extended public key (xpub) of the wallet that receives its payments`,
    );
  }
  try {
    parseXpub(s.xpub);
  } catch (err) {
    return error('xpub', 'format', (err as Error).message);
  }
  return [];
}
