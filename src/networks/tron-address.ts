import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

/**
 * TRON addresses: base58check over a version byte 0x41 and the same 20-byte account id an EVM
 * address carries (the last 20 bytes of keccak-256 over the public key), so `T…` and `0x…` name the
 * same key. TRON's JSON-RPC speaks the 20-byte hex form; people, wallets and explorers the `T…` form.
 */
const VERSION = 0x41;
const base58check = createBase58check(sha256);
/** 25 bytes (version, account id, 4-byte checksum) always encode to 34 characters starting with T. */
const SHAPE = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

export class TronAddressError extends Error {}

/** The `T…` address of a 20-byte account id. */
export function tronAddress(accountId: Uint8Array): string {
  if (accountId.length !== 20) throw new TronAddressError('an account id is 20 bytes');
  const payload = new Uint8Array(21);
  payload[0] = VERSION;
  payload.set(accountId, 1);
  return base58check.encode(payload);
}

/** The 20-byte account id of a `T…` address; throws TronAddressError on a bad character, length, checksum or version. */
export function tronAccountId(address: string): Uint8Array {
  if (!SHAPE.test(address)) {
    throw new TronAddressError('a TRON address is T followed by 33 base58 characters');
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    throw new TronAddressError('the TRON address fails its checksum: copy it again');
  }
  if (payload.length !== 21 || payload[0] !== VERSION) {
    throw new TronAddressError('not a TRON mainnet-format address (version byte 0x41)');
  }
  return payload.slice(1);
}

export function isTronAddress(text: string): boolean {
  try {
    tronAccountId(text);
    return true;
  } catch {
    return false;
  }
}
