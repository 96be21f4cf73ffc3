import { type NetworkRegistry, SANDBOX } from '../networks/network.js';
import { rpcVariable } from '../networks/rpc-settings.js';
import type { NodeProbe } from './probe.js';

export const FORWARDER_STATUSES = ['available', 'no_factory', 'unchecked'] as const;
/** Whether forwarder addresses can be offered on an EVM network (contract §21). */
export type ForwarderStatus = (typeof FORWARDER_STATUSES)[number];

/**
 * Which networks may be offered to payers, by this instance's knowledge (contract §21): the one rule
 * the invoice create, Settings and /v1/health all ask.
 */
export interface Watching {
  /** Why `network` is not watched (never offered to a payer); null when it is. Sandbox always is. */
  unwatched(network: string): string | null;
  /**
   * On an EVM network: `available` once the factory's code was found at its address, `no_factory`
   * when the node says there is none, `unchecked` until the node has answered.
   */
  forwarders(network: string): ForwarderStatus;
  /** Why a forwarder address cannot be offered on `network`; null when it can. */
  noForwarders(network: string): string | null;
}

const NO_FORWARDERS: Record<ForwarderStatus, string | null> = {
  available: null,
  no_factory: 'the forwarder factory is not deployed on this network',
  unchecked: 'the forwarder factory has not been found on this network yet (its node has not answered)',
};

export function watching(networks: NetworkRegistry, probe: NodeProbe): Watching {
  const forwarders = (network: string): ForwarderStatus => {
    const present = probe.factory(network);
    return present === undefined ? 'unchecked' : present ? 'available' : 'no_factory';
  };
  return {
    unwatched(network) {
      if (network === SANDBOX) return null;
      const n = networks.get(network);
      if (!n?.rpcUrl) return `no RPC URL is configured (${rpcVariable(network)})`;
      if (!probe.answered(network)) return 'its node has not answered since Paydesk started';
      return null;
    },
    forwarders,
    noForwarders: (network) => NO_FORWARDERS[forwarders(network)],
  };
}
