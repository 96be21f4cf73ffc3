import type { Hex } from 'viem';

export const RELAYER_KEY_VARIABLE = 'PAYDESK_RELAYER_KEY';
const KEY = /^0x[0-9a-fA-F]{64}$/;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * The relayer key of each network (contract §23): PAYDESK_RELAYER_KEY, else the network's collector
 * key. It pays the gas of payers' signed transfers and signs nothing else (gasless/chain.ts sends one
 * call only). A function, so the key is in no enumerable property; problems name the variable only.
 */
export function relayerKeys(
  env: Record<string, string | undefined>,
  collectorKey: (network: string) => Hex | undefined,
  problems: string[],
): (network: string) => Hex | undefined {
  const value = env[RELAYER_KEY_VARIABLE]?.trim() || undefined;
  const valid = value !== undefined && KEY.test(value) && BigInt(value) > 0n && BigInt(value) < N;
  if (value !== undefined && !valid) {
    problems.push(`${RELAYER_KEY_VARIABLE} must be a 0x-prefixed 32-byte secp256k1 private key`);
  }
  const key = valid ? (value as Hex) : undefined;
  return (network) => key ?? collectorKey(network);
}
