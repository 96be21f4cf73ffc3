import type { Address } from 'viem';
import { accountHex, FAMILY } from '../src/networks/family.js';
import { tronAddress } from '../src/networks/tron-address.js';
import { createInvoice, createMerchant, type Merchant, type TestApp } from './app.js';
import { TEST_XPUB, TRON_TEST_XPUB } from './chain/wallet.js';
import type { LocalChain } from './chain.js';
import { eventually } from './webhooks.js';

/** The local Hardhat chain as an operator adds it: PAYDESK_NETWORKS plus PAYDESK_RPC_LOCALCHAIN. */
export const LOCAL = 'localchain';

export interface ChainTokens {
  usdt: Address;
  usdc: Address;
  /** A token Paydesk does not know: transfers of it must be ignored. */
  other: Address;
}

/** Deploys the three test tokens and funds Hardhat account #0 with each. */
export async function deployTokens(chain: LocalChain): Promise<ChainTokens> {
  const usdt = await chain.deployToken({ symbol: 'USDT', decimals: 6 });
  const usdc = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
  const other = await chain.deployToken({ symbol: 'FAKE', decimals: 6 });
  for (const token of [usdt, usdc, other]) await chain.mint(token, chain.accounts[0] as Address, 10n ** 15n);
  return { usdt, usdc, other };
}

export function localNetworkEnv(
  chain: LocalChain,
  tokens: ChainTokens,
  tuning: { confirmations?: number; maxBlockRange?: number; rpcUrl?: string } = {},
): Record<string, string> {
  return {
    PAYDESK_NETWORKS: JSON.stringify([
      {
        name: LOCAL,
        label: 'Local chain',
        chainId: chain.chainId,
        testnet: true,
        confirmations: tuning.confirmations ?? 3,
        pollIntervalMs: 100,
        maxBlockRange: tuning.maxBlockRange ?? 100,
        tokens: {
          USDT: { address: tokens.usdt, decimals: 6 },
          USDC: { address: tokens.usdc, decimals: 6 },
        },
      },
    ]),
    PAYDESK_RPC_LOCALCHAIN: tuning.rpcUrl ?? chain.rpcUrl,
  };
}

/**
 * The local Hardhat chain as TRON's Nile: the built-in `tron-nile` network (TRON family, 19
 * confirmations, T-addresses, bare-address QR codes) with its RPC pointed at the node and its USDT
 * at the local test token, written as a TRON address. The node speaks the same JSON-RPC; only the
 * writing and the depth are TRON's.
 */
export const TRON_LOCAL = 'tron-nile';

export function tronNetworkEnv(chain: LocalChain, tokens: ChainTokens): Record<string, string> {
  return {
    PAYDESK_NETWORKS: JSON.stringify([
      {
        name: TRON_LOCAL,
        pollIntervalMs: 100,
        tokens: { USDT: { address: asTron(tokens.usdt), decimals: 6 } },
      },
    ]),
    PAYDESK_RPC_TRON_NILE: chain.rpcUrl,
  };
}

export function tronMerchant(t: TestApp, project: Record<string, unknown> = {}): Promise<Merchant> {
  return createMerchant(t.app, { network: TRON_LOCAL, currency: 'USDT', xpub: TRON_TEST_XPUB, ...project });
}

/** The TRON address of an account of the local chain, and back: the same 20 bytes. */
export const asTron = (address: Address) => tronAddress(Buffer.from(address.slice(2), 'hex'));
export const fromTron = (address: string) => accountHex(FAMILY.tron, address) as Address;

export function chainMerchant(t: TestApp, project: Record<string, unknown> = {}): Promise<Merchant> {
  return createMerchant(t.app, { network: LOCAL, currency: 'USDT', xpub: TEST_XPUB, ...project });
}

export async function newInvoice(t: TestApp, m: Merchant, amount = '10.50') {
  const res = await createInvoice(t.app, m, { amount });
  if (res.statusCode !== 201) throw new Error(`create → ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; pay_address: Address; [k: string]: unknown };
}

export async function getInvoice(t: TestApp, m: Merchant, id: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/merchant/invoices/${id}`, headers: m.auth });
  return res.json().data;
}

/** Waits until the watcher of `network` has processed every block up to the chain's current head. */
export async function caughtUp(
  t: TestApp,
  chain: LocalChain,
  timeoutMs = 15_000,
  network = LOCAL,
): Promise<void> {
  const head = await chain.blockNumber();
  await eventually(async () => {
    const row = await t.database.db
      .selectFrom('chain_cursors')
      .select('block_number')
      .where('network', '=', network)
      .executeTakeFirst();
    return row !== undefined && BigInt(row.block_number) >= head;
  }, timeoutMs);
}
