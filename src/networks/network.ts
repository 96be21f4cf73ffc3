/** What Paydesk knows about a payment network; the registry (registry.ts) holds them all. */
import type { FamilyName } from './family.js';

/** The tokens a network may offer: stablecoins, one contract per network each. */
export const CURRENCIES = ['USDT', 'USDC'] as const;
export type Currency = (typeof CURRENCIES)[number];

/**
 * What a project may price its invoices in (contract §15): `USD`, paid in USDT or USDC at par, or one
 * of the tokens, paid in that token only.
 */
export const INVOICE_CURRENCIES = ['USD', ...CURRENCIES] as const;
export type InvoiceCurrency = (typeof INVOICE_CURRENCIES)[number];

/** The simulated network whose payments are made by hand (contract §11); every other network is a chain. */
export const SANDBOX = 'sandbox';

export interface Token {
  /** The contract, in its family's form: EIP-55 `0x…` on EVM networks, `T…` on TRON, the SPL mint (base58) on Solana. */
  readonly address: string;
  readonly decimals: number;
  /**
   * The token's EIP-712 domain when it takes EIP-3009 signed transfers (USDC's
   * `transferWithAuthorization`): its invoices can then be paid gasless (contract §23).
   */
  readonly eip3009?: { readonly name: string; readonly version: string };
}

export interface Network {
  readonly name: string;
  readonly label: string;
  /** How addresses, payment requests and transaction hashes are written (family.ts). */
  readonly family: FamilyName;
  /** What the node's eth_chainId answers (on TRON: the last 4 bytes of the genesis block id; 0 on Solana, which has none). */
  readonly chainId: number;
  readonly testnet: boolean;
  /** A payment is final once its block and `confirmations - 1` blocks after it exist (1: once mined). */
  readonly confirmations: number;
  readonly pollIntervalMs: number;
  /** The widest block range one eth_getLogs call asks for: providers cap it. */
  readonly maxBlockRange: number;
  /**
   * Transaction page prefix, `${explorer}${txHash}`, or a template where `{tx}` stands for the hash
   * (Solana's devnet explorer takes `?cluster=devnet` after it); undefined for a local chain.
   */
  readonly explorer: string | undefined;
  readonly tokens: Readonly<Partial<Record<Currency, Token>>>;
  /** From PAYDESK_RPC_<NAME>; a network is enabled when it has one. It may embed a provider key: never log it. */
  readonly rpcUrl: string | undefined;
  /** Headers sent with every RPC call (TronGrid's API key). Secret: never log them. */
  readonly rpcHeaders: Readonly<Record<string, string>> | undefined;
}

export type NetworkSettings = Omit<Network, 'rpcUrl' | 'rpcHeaders'>;

export interface NetworkRegistry {
  get(name: string): Network | undefined;
  /** The networks with an RPC URL, in registry order: the ones to watch and to offer. */
  enabled(): readonly Network[];
  all(): readonly Network[];
  /** The contract of `currency` on `network`; undefined when the network is unknown or lacks it. */
  token(network: string, currency: Currency): Token | undefined;
  /** How people read a network's name ("Polygon", "Sandbox"); the stored name when it is unknown. */
  label(name: string): string;
  /** The block explorer's page of a transaction; undefined on sandbox, a local chain or an unknown network. */
  transactionUrl(network: string, txHash: string): string | undefined;
}
