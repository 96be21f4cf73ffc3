import type { HDKey } from '@scure/bip32';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { takeAddressIndex } from './repository.js';
import { deriveAddress, parseXpub } from './xpub.js';

const MAX_CHILD_INDEX = 2 ** 31 - 1;
const parsedKeys = new Map<string, HDKey>();

/**
 * The next deposit address of a project on a chain: a fresh child index of its xpub (never reused,
 * see takeAddressIndex), derived here. Paydesk only ever sees public keys.
 */
export async function newDepositAddress(
  db: Kysely<Database>,
  projectId: string,
): Promise<{ address: string; index: string }> {
  const taken = await takeAddressIndex(db, projectId);
  // Project settings are validated together (admin API), so a chain project always has its key.
  if (!taken) throw new Error(`project ${projectId} is on a chain but has no xpub`);
  const index = Number(taken.index);
  if (index > MAX_CHILD_INDEX) throw new Error(`xpub of project ${projectId} has no unused child index left`);
  return { address: deriveAddress(keyOf(taken.xpub), index), index: taken.index };
}

// Parsing checks the key's checksum and decodes a curve point: worth doing once per key, not per invoice.
function keyOf(xpub: string): HDKey {
  let key = parsedKeys.get(xpub);
  if (!key) {
    if (parsedKeys.size >= 1000) parsedKeys.clear();
    key = parseXpub(xpub);
    parsedKeys.set(xpub, key);
  }
  return key;
}
