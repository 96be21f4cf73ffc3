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

/** The relayer's native balance, cached; undefined when the node did not answer (or no relayer). */
export async function relayerBalance(
  deps: GaslessDeps,
  network: string,
  nowMs: number,
): Promise<bigint | undefined> {
  const cached = balances.get(network);
  if (cached && nowMs - cached.at < BALANCE_TTL_MS) return cached.wei;
  const n = deps.networks.get(network);
  const key = deps.relayerKey(network);
  let wei: bigint | undefined;
  if (n?.rpcUrl && key) {
    try {
      wei = await relayerChain(
        { name: n.name, chainId: n.chainId, rpcUrl: n.rpcUrl },
        key as Hex,
      ).nativeBalance();
    } catch {
      wei = undefined;
    }
  }
  balances.set(network, { wei, at: nowMs });
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
