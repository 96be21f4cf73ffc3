import type { FieldError } from '../http/errors.js';
import { FAMILY } from './family.js';
import { type Currency, type Network, type NetworkRegistry, SANDBOX } from './network.js';
import { parseXpub } from './xpub.js';

export interface PaymentSettings {
  network: string;
  currency: string;
  xpub: string | null;
}

const error = (field: string, rule: string, message: string): FieldError[] => [
  { in: 'body', field, rule, message },
];

/**
 * A project's network, currency and xpub are checked together (on create and on every change), so a
 * project on a chain always has a token for its currency and a key to derive addresses from.
 */
export function paymentSettingsErrors(networks: NetworkRegistry, s: PaymentSettings): FieldError[] {
  if (s.network === SANDBOX) {
    return s.xpub === null
      ? []
      : error('xpub', 'not_allowed', 'sandbox payments are simulated: a sandbox project takes no xpub');
  }
  const network = networks.get(s.network);
  if (!network) return unknownNetwork(networks);
  if (!networks.token(network.name, s.currency as Currency)) {
    const offered = Object.keys(network.tokens).join(', ') || 'none configured';
    const why =
      network.family === 'tron' && s.currency === 'USDC' ? '; Circle ended USDC on TRON in 2024' : '';
    return error(
      'currency',
      'unsupported',
      `${s.currency} is not available on ${network.name} (offered: ${offered})${why}`,
    );
  }
  return xpubErrors(network, s.xpub);
}

export function unknownNetwork(networks: NetworkRegistry): FieldError[] {
  const known = [SANDBOX, ...networks.all().map((n) => n.name)].join(', ');
  return error('network', 'enum', `network must be one of: ${known}`);
}

/** A chain network needs the account-level xpub of its family's path (m/44'/60'/0', m/44'/195'/0'). */
export function xpubErrors(network: Network, xpub: string | null): FieldError[] {
  if (xpub === null) {
    return error(
      'xpub',
      'required',
      `a project on ${network.name} needs the extended public key (xpub) of the wallet that receives its payments`,
    );
  }
  try {
    parseXpub(xpub, FAMILY[network.family].coinType);
  } catch (err) {
    return error('xpub', 'format', (err as Error).message);
  }
  return [];
}
