import { checksumAddress, isAddress } from './evm-address.js';
import { isSolanaAddress, solanaAddress, solanaKeyBytes } from './solana-address.js';
import { isTronAddress, tronAccountId, tronAddress } from './tron-address.js';

/** Families of networks: chains that share a key scheme and a node API, and differ in how they write things. */
export const FAMILIES = ['evm', 'tron', 'solana'] as const;
export type FamilyName = (typeof FAMILIES)[number];

/** The families whose deposit addresses come from an xpub and whose nodes serve Ethereum's JSON-RPC. */
export const XPUB_FAMILIES = ['evm', 'tron'] as const;
export type XpubFamily = (typeof XPUB_FAMILIES)[number];

/**
 * What differs between the families. EVM and TRON derive the same 20-byte account id from a secp256k1 key
 * (the last 20 bytes of keccak-256 over the public key) and both serve Ethereum's JSON-RPC, so one
 * deriver and one watcher serve both; only the writing differs.
 */
export interface Family {
  readonly name: FamilyName;
  /** BIP44 coin type of the account key wallets export, m/44'/<coinType>'/0': 60 for Ethereum, 195 for TRON, 501 for Solana. */
  readonly coinType: number;
  /** The address people and wallets see, from its account id (20 bytes; on Solana the 32-byte key). */
  address(accountId: Uint8Array): string;
  /** The 20-byte account id of an address written in this family's form; throws when it is not one. */
  accountId(address: string): Uint8Array;
  isAddress(text: string): boolean;
  /** Completes "tokens.USDT.address …" when a configured token address is not one of this family's. */
  readonly addressProblem: string;
  /** A transaction hash as the family's wallets and explorers show it, from JSON-RPC's `0x…` form. */
  txHash(rpcHash: string): string;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const evm: Family = {
  name: 'evm',
  coinType: 60,
  address: (id) => checksumAddress(`0x${hex(id)}`),
  accountId(address) {
    if (!isAddress(address)) throw new RangeError('not an EIP-55 address');
    return Uint8Array.from(Buffer.from(address.slice(2), 'hex'));
  },
  isAddress,
  addressProblem: 'fails its EIP-55 checksum; recheck it or write it in lower case',
  txHash: (h) => h,
};

const tron: Family = {
  name: 'tron',
  coinType: 195,
  address: tronAddress,
  accountId: tronAccountId,
  isAddress: isTronAddress,
  addressProblem: 'must be a TRON address (T…, base58check) on a TRON network',
  // TRON's JSON-RPC writes a txid as 0x + 64 hex; Tronscan, TronGrid and TRON's wallets write it without 0x.
  txHash: (h) => (h.startsWith('0x') ? h.slice(2) : h).toLowerCase(),
};

/**
 * Solana (src/solana): a third family with its own node API and watcher. Addresses are base58 32-byte
 * keys; the merchant's wallet receives payments straight into its token accounts, so nothing is
 * derived from an xpub and coinType only names the path wallets use (m/44'/501'/0'/0').
 */
const solana: Family = {
  name: 'solana',
  coinType: 501,
  address: solanaAddress,
  accountId(address) {
    const bytes = solanaKeyBytes(address);
    if (!bytes) throw new RangeError('not a base58 32-byte Solana address');
    return bytes;
  },
  isAddress: isSolanaAddress,
  addressProblem: 'must be a base58 Solana address (32 bytes) on a Solana network',
  txHash: (h) => h,
};

export const FAMILY: Readonly<Record<FamilyName, Family>> = Object.freeze({ evm, tron, solana });

/** The lower-case `0x` hex of an address's account id: how JSON-RPC filters and logs name it, in every family. */
export function accountHex(family: Family, address: string): string {
  return `0x${hex(family.accountId(address))}`;
}
