import type { Hex } from 'viem';

export const COLLECTOR_KEY_VARIABLE = 'PAYDESK_COLLECTOR_KEY';
const KEY = /^0x[0-9a-fA-F]{64}$/;
// secp256k1's group order: a private key is a number from 1 to n - 1.
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** `polygon-amoy` → `PAYDESK_COLLECTOR_KEY_POLYGON_AMOY`, which overrides PAYDESK_COLLECTOR_KEY there. */
export function collectorKeyVariable(network: string): string {
  return `${COLLECTOR_KEY_VARIABLE}_${network.toUpperCase().replaceAll('-', '_')}`;
}

/**
 * The collector key of each network, from the environment: a function, so the keys are in no
 * enumerable property (a config logged or serialised whole shows none). It pays gas for collections and
 * the factory's deployment, and can send funds nowhere but a payout address (docs/forwarders.md).
 * Problems name the variable, never its value.
 */
export function collectorKeys(
  env: Record<string, string | undefined>,
  networks: readonly string[],
  problems: string[],
): (network: string) => Hex | undefined {
  const check = (variable: string): Hex | undefined => {
    const value = env[variable]?.trim() || undefined;
    if (value === undefined) return undefined;
    const valid = KEY.test(value) && BigInt(value) > 0n && BigInt(value) < N;
    if (!valid) problems.push(`${variable} must be a 0x-prefixed 32-byte secp256k1 private key`);
    return valid ? (value as Hex) : undefined;
  };
  const fallback = check(COLLECTOR_KEY_VARIABLE);
  const keys = new Map(networks.map((n) => [n, check(collectorKeyVariable(n)) ?? fallback]));
  const known = new Set(networks.map(collectorKeyVariable));
  for (const variable of Object.keys(env)) {
    if (variable.startsWith(`${COLLECTOR_KEY_VARIABLE}_`) && env[variable] && !known.has(variable)) {
      problems.push(`${variable} names no EVM network (known: ${networks.join(', ')})`);
    }
  }
  return (network) => keys.get(network);
}
