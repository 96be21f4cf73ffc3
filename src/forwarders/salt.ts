import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The forwarder salt of one invoice: keccak256(abi.encode(projectId, invoiceId)). Both ids are in it,
 * so two projects never share a forwarder even with the same payout address, and abi.encode keeps
 * ("ab", "c") and ("a", "bc") apart. Public ids only: the salt is visible on-chain once collected.
 * Encoded by hand over @noble/hashes (see address.ts for why not viem); salt.test.ts compares it with
 * viem's encodeAbiParameters.
 */
export function invoiceSalt(projectId: string, invoiceId: string): `0x${string}` {
  const a = utf8ToBytes(projectId);
  const b = utf8ToBytes(invoiceId);
  // abi.encode(string, string): two offsets, then each string as its length and its bytes, padded to words.
  const tailA = concatBytes(uint(a.length), padded(a));
  const encoded = concatBytes(uint(64), uint(64 + tailA.length), tailA, uint(b.length), padded(b));
  return `0x${bytesToHex(keccak_256(encoded))}`;
}

function uint(n: number): Uint8Array {
  const out = new Uint8Array(32);
  new DataView(out.buffer).setBigUint64(24, BigInt(n));
  return out;
}

function padded(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
  out.set(bytes);
  return out;
}
