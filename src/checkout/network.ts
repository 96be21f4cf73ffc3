import type { NetworkRegistry } from '../chains/networks.js';

const LABELS: Record<string, string> = {
  sandbox: 'Sandbox',
};

/** How the payment page names a network: the registry's label, else the stored name. */
export function networkLabel(network: string, networks?: NetworkRegistry): string {
  return LABELS[network] ?? networks?.get(network)?.label ?? network;
}
