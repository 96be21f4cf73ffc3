import { ApiError } from '../http/errors.js';
import { FAMILY } from './family.js';
import { type NetworkRegistry, SANDBOX } from './network.js';
import { unknownNetwork, xpubErrors } from './settings.js';
import { deriveAddress, parseXpub } from './xpub.js';

export const MAX_PREVIEW = 20;

export interface PreviewInput {
  network: string;
  xpub: string;
  count: number;
}

export interface AddressPreview {
  network: string;
  addresses: Array<{ index: number; address: string }>;
}

/**
 * The first `count` deposit addresses an xpub gives on a network (0/0, 0/1, …), written as the network
 * writes them (`0x…` or `T…`). The merchant compares them with the receiving addresses their wallet
 * lists before saving the key: an xpub does not say which coin path it came from, so this is how a
 * key of the wrong path (an Ethereum key for TRON) is caught. The admin API and the dashboard's
 * settings page both call this.
 */
export function previewAddresses(networks: NetworkRegistry, input: PreviewInput): AddressPreview {
  if (input.network === SANDBOX) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'network',
        rule: 'not_allowed',
        message: 'sandbox addresses are synthetic, one per invoice: choose a chain network',
      },
    ]);
  }
  const network = networks.get(input.network);
  if (!network) throw ApiError.validation(unknownNetwork(networks));
  const problems = xpubErrors(network, input.xpub);
  if (problems.length > 0) throw ApiError.validation(problems);
  const key = parseXpub(input.xpub);
  const family = FAMILY[network.family];
  const count = Math.min(Math.max(1, Math.trunc(input.count)), MAX_PREVIEW);
  return {
    network: network.name,
    addresses: Array.from({ length: count }, (_, index) => ({
      index,
      address: deriveAddress(key, index, family),
    })),
  };
}
