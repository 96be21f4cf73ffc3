import { randomFillSync } from 'node:crypto';

// Random bytes are drawn from the CSPRNG 4 KiB at a time and handed out in slices: one system call
// per few hundred ids instead of one per id (Node's randomUUID caches the same way).
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** `n` cryptographically random bytes (a copy; the pool is never handed out twice). */
export function randomBytesPooled(n: number): Buffer {
  if (n > POOL_SIZE) return randomFillSync(Buffer.alloc(n));
  if (offset + n > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = Buffer.from(pool.subarray(offset, offset + n));
  offset += n;
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `length` characters drawn uniformly from [A-Za-z0-9] with a cryptographic generator (rejection
 * sampling, so no character is likelier than another): log2(62) ≈ 5.95 bits each.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytesPooled(length * 2)) {
      if (byte >= 248) continue; // 248 = 62 * 4: keep the draw uniform
      out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix =
  | 'inv'
  | 'prj'
  | 'acct'
  | 'key'
  | 'evt'
  | 'we'
  | 'usr'
  | 'col'
  | 'ref'
  | 'plink'
  | 'till';

/** Public ids carry their type (`inv_…`); 24 random characters are ≈ 143 bits: unguessable. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export function hasIdShape(value: string, prefix: IdPrefix): boolean {
  return (
    value.length <= 64 &&
    value.startsWith(`${prefix}_`) &&
    /^[A-Za-z0-9]{22,}$/.test(value.slice(prefix.length + 1))
  );
}
