import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * The checksum Safe's Transaction Builder keeps in a batch file's `meta.checksum` and checks when it
 * imports one (a file changed by hand gets a warning): keccak-256 of the file serialised with its
 * keys sorted, each object written as the JSON array of its keys followed by each value and a comma.
 * The file is checksummed without `meta.checksum`, as the Transaction Builder checks it.
 */
export function safeChecksum(file: unknown): string {
  return `0x${bytesToHex(keccak_256(new TextEncoder().encode(serialise(file))))}`;
}

function serialise(json: unknown): string {
  if (Array.isArray(json)) return `[${json.map(serialise).join(',')}]`;
  if (typeof json === 'object' && json !== null) {
    const record = json as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${JSON.stringify(keys)}${keys.map((k) => `${serialise(record[k])},`).join('')}}`;
  }
  // JSON has no undefined: the Transaction Builder writes it as null.
  return JSON.stringify(json === undefined ? null : json);
}
