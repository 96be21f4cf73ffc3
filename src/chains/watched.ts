import { type NetworkRegistry, SANDBOX } from '../networks/network.js';
import { rpcVariable } from '../networks/rpc-settings.js';
import type { NodeProbe } from './probe.js';

/**
 * Which networks may be offered to payers, by this instance's knowledge (contract §21): the one rule
 * the invoice create, the payment page, Settings and /v1/health all ask.
 */
export interface Watching {
  /** Why `network` is not watched (never offered to a payer); null when it is. Sandbox always is. */
  unwatched(network: string): string | null;
  /**
   * Why a forwarder address cannot be offered on `network` (the factory's code is not at its
   * address there, or is not known to be yet); null when it can. Only asked of EVM networks.
   */
  noForwarders(network: string): string | null;
}

export function watching(networks: NetworkRegistry, probe: NodeProbe): Watching {
  return {
    unwatched(network) {
      if (network === SANDBOX) return null;
      const n = networks.get(network);
      if (!n?.rpcUrl) return `no RPC URL is configured (${rpcVariable(network)})`;
      if (!probe.answered(network)) return 'its node has not answered since Paydesk started';
      return null;
    },
    noForwarders(network) {
      const present = probe.factory(network);
      if (present === true) return null;
      return present === false
        ? 'the forwarder factory is not deployed on this network'
        : 'the forwarder factory has not been found on this network yet (its node has not answered)';
    },
  };
}
