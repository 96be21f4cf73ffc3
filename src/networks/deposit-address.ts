import { hash } from 'node:crypto';
import type { HDKey } from '@scure/bip32';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { FAMILY, XPUB_FAMILIES } from './family.js';
import { type AddressKind, addressKind, type PaymentMethod } from './methods.js';
import type { NetworkRegistry } from './network.js';
import { takeAddressIndexes } from './repository.js';
import { deriveAddress, parseXpub } from './xpub.js';

const MAX_CHILD_INDEX = 2 ** 31 - 1;
const parsedKeys = new Map<string, HDKey>();

export interface DepositAddress {
  address: string;
  /** The xpub child index it was derived at (bigint as a string); null on `sandbox` and for a forwarder. */
  index: string | null;
}

/** An invoice's deposit addresses, one per kind its methods need. */
export type DepositAddresses = Partial<Record<AddressKind, DepositAddress>>;

/**
 * Where the payer of a new invoice sends funds, for each kind of address its methods need. On a chain
 * family: the next fresh child index of the project's xpub for that family (never reused, see
 * takeAddressIndexes), one address for every network of the family; Paydesk only ever sees public
 * keys. On `sandbox`: a synthetic address derived from the invoice id, unique to it and shaped like
 * the EVM address a real network gives. A project that collects (contract §16) passes the invoice's
 * forwarder, its EVM address instead: computed, never derived from a key, the same on every EVM network.
 */
export async function newDepositAddresses(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  projectId: string,
  methods: readonly PaymentMethod[],
  invoiceId: string,
  /** The invoice's forwarder (contract §16), when its project collects: its EVM address then. */
  forwarder?: string | undefined,
  /** The project's Solana wallet (contract §24): every Solana method pays straight into it. */
  solanaWallet?: string | null,
): Promise<DepositAddresses> {
  const kinds = new Set<AddressKind>();
  for (const m of methods) {
    const kind = addressKind(networks, m.network);
    // A project's methods are checked against the registry whenever they are set (methods.ts).
    if (!kind) throw new Error(`project ${projectId} accepts unknown network ${m.network}`);
    kinds.add(kind);
  }
  const out: DepositAddresses = {};
  if (kinds.has('sandbox')) {
    out.sandbox = {
      address: `0x${hash('sha256', invoiceId, 'hex').slice(0, 40)}`,
      index: null,
    };
  }
  if (kinds.has('solana')) {
    // Project settings are validated together, so Solana methods always come with the wallet.
    if (!solanaWallet)
      throw new Error(`project ${projectId} accepts Solana methods but has no solana_address`);
    out.solana = { address: solanaWallet, index: null };
  }
  if (kinds.has('evm') && forwarder) {
    out.evm = { address: forwarder, index: null };
    kinds.delete('evm');
  }
  const families = XPUB_FAMILIES.filter((f) => kinds.has(f));
  if (families.length === 0) return out;
  const taken = await takeAddressIndexes(db, projectId, families);
  for (const family of families) {
    const t = taken.find((row) => row.family === family);
    // Project settings are validated together, so a family's methods always come with its key.
    if (!t) throw new Error(`project ${projectId} accepts ${family} methods but has no ${family} xpub`);
    const index = Number(t.index);
    if (index > MAX_CHILD_INDEX)
      throw new Error(`${family} xpub of project ${projectId} has no unused child index left`);
    out[family] = { address: deriveAddress(keyOf(t.xpub), index, FAMILY[family]), index: t.index };
  }
  return out;
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
