import type { FieldError } from '../http/errors.js';
import { FAMILY } from './family.js';
import { type Network, type NetworkRegistry, SANDBOX } from './network.js';
import { parseXpub } from './xpub.js';

const error = (field: string, rule: string, message: string): FieldError[] => [
  { in: 'body', field, rule, message },
];

/** The field error of a network name the registry does not know. */
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
