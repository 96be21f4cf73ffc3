import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * EVM addresses, EIP-55. Written here (a dozen lines over @noble/hashes) rather than imported from
 * viem, which costs some 25 MB of memory to load: only processes that run a chain watcher load viem.
 */
export type Address = `0x${string}`;

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 mixed-case form: each letter upper-cased where the hash of the lower-case hex says so. */
export function checksumAddress(address: string): Address {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? (hex[i] as string).toUpperCase() : hex[i];
  }
  return out as Address;
}

/** 0x and 40 hex digits; a mixed-case address must carry a correct checksum (all-lower-case carries none). */
export function isAddress(value: string): value is Address {
  if (!HEX_ADDRESS.test(value)) return false;
  return value === value.toLowerCase() || checksumAddress(value) === value;
}
