import type { Hex } from 'viem';
import { relayerChain } from './chain.js';
import type { GaslessOffer } from './offer.js';
import { type GaslessDeps, offersOf } from './service.js';

/**
 * Below this native balance (in wei) the relayer is out of gas for the page's purposes: the wallet
 * button is not shown (contract §23: a relayer without gas turns the option off, never breaks the page).
 * Zero: any balance at all is tried; a send that then fails for gas answers the payer "pay from the
 * address instead". The dashboard warns well before (docs/gasless.md).
 */
const EMPTY_WEI = 0n;
/** A relayer's balance is read at most once a minute per network by a page: payers' page views cost no RPC. */
const BALANCE_TTL_MS = 60_000;
const balances = new Map<string, { wei: bigint | undefined; at: number }>();

/** The relayer's native balance, cached per network and relayer; undefined when the node did not answer (or no relayer). */
export async function relayerBalance(
  deps: GaslessDeps,
  network: string,
  nowMs: number,
): Promise<bigint | undefined> {
  const n = deps.networks.get(network);
  const key = deps.relayerKey(network);
  if (!n?.rpcUrl || !key) return undefined;
  const chain = relayerChain({ name: n.name, chainId: n.chainId, rpcUrl: n.rpcUrl }, key as Hex);
  const id = `${network} ${chain.relayer}`;
  const cached = balances.get(id);
  if (cached && nowMs - cached.at < BALANCE_TTL_MS) return cached.wei;
  const wei = await chain.nativeBalance().catch(() => undefined);
  balances.set(id, { wei, at: nowMs });
  return wei;
}

/** The wallet button's signing request for the page's chosen method, when it may be shown. */
export async function walletOffer(
  deps: GaslessDeps,
  id: string,
  method: { network: string; currency: string },
  now: Date,
): Promise<GaslessOffer | undefined> {
  const token = deps.networks.token(method.network, method.currency as 'USDC');
  if (!token?.eip3009) return undefined;
  const offer = (await offersOf(deps, id, now)).find((o) => o.network === method.network);
  if (!offer) return undefined;
  const wei = await relayerBalance(deps, offer.network, now.getTime());
  return wei !== undefined && wei > EMPTY_WEI ? offer : undefined;
}

/** Gas of one signed transfer by the relayer, rounded up from `npm run bench:gas` (72,015 on the USDC-like token). */
export const RELAYER_GAS_PER_PAYMENT = 80_000n;
/** The dashboard warns below this many payments' worth of gas. */
export const LOW_PAYMENTS_LEFT = 100n;

export interface RelayerStatus {
  network: string;
  label: string;
  relayer: string;
  /** Wei; undefined when the node did not answer. */
  balance: bigint | undefined;
  /** How many signed transfers the balance pays for at the node's gas price now. */
  paymentsLeft: bigint | undefined;
  state: 'ok' | 'low' | 'empty' | 'unknown';
}

/**
 * The relayer of every watched EVM network with a gasless token (contract §23): its balance and how
 * long it lasts, for the dashboard. Read live (the owner asked); a node that does not answer is 'unknown'.
 */
export async function relayerStatuses(deps: GaslessDeps): Promise<RelayerStatus[]> {
  const networks = deps.networks
    .enabled()
    .filter((n) => n.family === 'evm' && Object.values(n.tokens).some((t) => t?.eip3009));
  return Promise.all(
    networks.flatMap((n) => {
      const key = deps.relayerKey(n.name);
      if (!key || !n.rpcUrl) return [];
      const chain = relayerChain({ name: n.name, chainId: n.chainId, rpcUrl: n.rpcUrl }, key as Hex);
      return [status(n.name, n.label, chain)];
    }),
  );
}

async function status(
  network: string,
  label: string,
  chain: ReturnType<typeof relayerChain>,
): Promise<RelayerStatus> {
  try {
    const [balance, price] = await Promise.all([chain.nativeBalance(), chain.gasPrice()]);
    const paymentsLeft = balance / ((price > 0n ? price : 1n) * RELAYER_GAS_PER_PAYMENT);
    const state = balance === 0n ? 'empty' : paymentsLeft < LOW_PAYMENTS_LEFT ? 'low' : 'ok';
    return { network, label, relayer: chain.relayer, balance, paymentsLeft, state };
  } catch {
    return {
      network,
      label,
      relayer: chain.relayer,
      balance: undefined,
      paymentsLeft: undefined,
      state: 'unknown',
    };
  }
}
