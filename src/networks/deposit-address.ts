import { createHash } from 'node:crypto';
import type { HDKey } from '@scure/bip32';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { FAMILY } from './family.js';
import { type NetworkRegistry, SANDBOX } from './network.js';
import { takeAddressIndex } from './repository.js';
import { deriveAddress, parseXpub } from './xpub.js';

const MAX_CHILD_INDEX = 2 ** 31 - 1;
const parsedKeys = new Map<string, HDKey>();

export interface DepositAddress {
  address: string;
  /** The xpub child index it was derived at (bigint as a string); null on `sandbox`. */
  index: string | null;
}

/**
 * Where the payer of a new invoice sends funds. On a chain: the next fresh child index of the
 * project's xpub (never reused, see takeAddressIndex); Paydesk only ever sees public keys. On
 * `sandbox`: a synthetic address derived from the invoice id, unique to it and shaped like the EVM
 * address a real network gives.
 */
export async function newDepositAddress(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  project: { id: string; network: string },
  invoiceId: string,
): Promise<DepositAddress> {
  if (project.network === SANDBOX) {
    return { address: `0x${createHash('sha256').update(invoiceId).digest('hex').slice(0, 40)}`, index: null };
  }
  const network = networks.get(project.network);
  // A project's network is checked against the registry whenever it is set (settings.ts).
  if (!network) throw new Error(`project ${project.id} is on unknown network ${project.network}`);
  const taken = await takeAddressIndex(db, project.id);
  // Project settings are validated together (admin API), so a chain project always has its key.
  if (!taken) throw new Error(`project ${project.id} is on a chain but has no xpub`);
  const index = Number(taken.index);
  if (index > MAX_CHILD_INDEX)
    throw new Error(`xpub of project ${project.id} has no unused child index left`);
  return { address: deriveAddress(keyOf(taken.xpub), index, FAMILY[network.family]), index: taken.index };
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
