import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import {
  confirmedPayment,
  confirmingUpTo,
  invoicesByReference,
  type ObserveContext,
  observe,
  type Reported,
  solanaWallets,
} from '../invoices/sources.js';
import { fromTokenUnits } from '../money/money.js';
import { mayPay } from '../networks/livemode.js';
import type { Currency } from '../networks/network.js';
import { associatedTokenAccount } from '../networks/solana-address.js';
import {
  confirmBuriedRefunds,
  recordRefundPayments,
  refundRecipients,
  refundsSent,
  type Transfer,
} from '../refunds/watch.js';
import * as repo from './repository.js';
import { type SignatureInfo, type SignatureStatus, type SolanaReader, SolanaRpcError } from './rpc.js';
import { readTransfer, type SeenTransfer } from './transfer.js';

/** What a Solana watcher needs to know about its network. */
export interface SolanaNetwork {
  name: string;
  /** A testnet: its payments only ever reach test invoices (contract §21). */
  test: boolean;
  /** Mint → its currency and decimals. */
  mints: ReadonlyMap<string, { currency: Currency; decimals: number }>;
}

export interface SolanaScanContext {
  db: Kysely<Database>;
  network: SolanaNetwork;
  reader: SolanaReader;
  now: () => Date;
  publicBaseUrl: string;
}

/** A watched token account: the ATA of a merchant's wallet (or of a refund's payer) for one mint. */
interface Watched {
  account: string;
  wallet: string;
  mint: string;
  /** The oldest invoice (or ready refund) it may pay dates from then: no older signature needs reading. */
  since: Date;
  /** A ready refund waits for a transfer into it (contract §24: refunds to Solana addresses). */
  refund: boolean;
}

const PAGE = 1000;
const MAX_PAGES = 10;
const FETCH_CONCURRENCY = 8;
/** Block times and our clock may disagree a little; reading a few minutes early costs nothing. */
const CLOCK_SKEW_MS = 10 * 60_000;

const observing = (ctx: SolanaScanContext): ObserveContext => ({
  now: ctx.now(),
  publicBaseUrl: ctx.publicBaseUrl,
});

/**
 * One step of a Solana network's watcher, a payment source with the same contract as the chain
 * watchers (docs/networks.md, "Solana"): read the new signatures of every watched token account at
 * `confirmed`, read those transactions, report the credits that carry an invoice's reference, and
 * move each account's cursor in the same transaction (observe's `alongside`); then confirm what is
 * now `finalized` and reverse what never will be. RPC calls grow with the watched token accounts
 * (one getSignaturesForAddress each) and the transactions into them, never with open invoices.
 */
export async function solanaScanStep(ctx: SolanaScanContext): Promise<boolean> {
  const watched = await watchedAccounts(ctx);
  const cursors = new Map((await repo.cursorsOf(ctx.db, ctx.network.name)).map((c) => [c.account, c]));
  const fresh = await Promise.all(watched.map((w) => newSignatures(ctx, w, cursors.get(w.account))));
  const signatures = new Map<string, SignatureInfo>();
  for (const list of fresh) for (const s of list) signatures.set(s.signature, s);
  const transfers = await readAll(ctx, [...signatures.values()], new Set(watched.map((w) => w.account)));
  const reports = await paymentsOf(ctx, transfers, watched, signatures);
  const moved = watched.flatMap((w, i) => {
    const newest = fresh[i]?.[0];
    return newest ? [{ account: w.account, signature: newest.signature, slot: newest.slot }] : [];
  });
  await observe(ctx.db, reports, observing(ctx), async (tx) => {
    await repo.saveCursors(tx, ctx.network.name, moved, ctx.now());
    // The same transactions, read once, may pay refunds into payers' token accounts (contract §18),
    // decided under the refunds' locks; they are final once finalized (settle).
    await recordRefundPayments(
      tx,
      refundNetwork(ctx.network),
      refundTransfers(transfers, watched),
      -1n,
      ctx.now(),
    );
  });
  await settle(ctx);
  return false;
}

/** Credits into the token accounts of refunds' payers, as the refunds' matcher reads transfers. */
function refundTransfers(transfers: SeenTransfer[], watched: Watched[]): Transfer[] {
  const refunds = new Map(watched.filter((w) => w.refund).map((w) => [w.account, w]));
  return transfers.flatMap((t) =>
    [...t.credits].flatMap(([account, credit]) => {
      const w = refunds.get(account);
      if (!w || credit.mint !== w.mint) return [];
      return [
        {
          token: credit.mint,
          to: w.wallet,
          value: credit.units,
          txHash: t.signature,
          blockNumber: BigInt(t.slot),
        },
      ];
    }),
  );
}

/** The network as the refunds module reads it: currency → mint and decimals. */
function refundNetwork(network: SolanaNetwork) {
  return {
    name: network.name,
    tokens: new Map(
      [...network.mints].map(([mint, t]) => [t.currency as string, { address: mint, decimals: t.decimals }]),
    ),
  };
}

/** The token accounts of every wallet with an invoice still open, one per mint of the network. */
async function watchedAccounts(ctx: SolanaScanContext): Promise<Watched[]> {
  const [wallets, recipients] = await Promise.all([
    solanaWallets(ctx.db, ctx.now()),
    refundRecipients(ctx.db, ctx.network.name),
  ]);
  const out = new Map<string, Watched>();
  for (const { solana_address: wallet, since } of wallets) {
    for (const mint of ctx.network.mints.keys()) {
      out.set(ataOf(wallet, mint), { account: ataOf(wallet, mint), wallet, mint, since, refund: false });
    }
  }
  for (const r of recipients) {
    const mint = [...ctx.network.mints].find(([, t]) => t.currency === r.token)?.[0];
    if (!mint) continue;
    const account = ataOf(r.address, mint);
    const seen = out.get(account);
    out.set(account, {
      account,
      wallet: r.address,
      mint,
      since: seen && seen.since < r.since ? seen.since : r.since,
      refund: true,
    });
  }
  return [...out.values()];
}

// A program address costs a few hashes and curve checks: worth deriving once per wallet and mint.
const atas = new Map<string, string>();
function ataOf(wallet: string, mint: string): string {
  const key = `${wallet} ${mint}`;
  let ata = atas.get(key);
  if (!ata) {
    if (atas.size >= 100_000) atas.clear();
    ata = associatedTokenAccount(wallet, mint);
    atas.set(key, ata);
  }
  return ata;
}

/**
 * Signatures of the account newer than its cursor, newest first, successful ones only. A cursor the
 * node no longer knows (its transaction was on a dropped fork) makes the node answer from further
 * back: anything older than the cursor's slot was read before, and is skipped.
 */
async function newSignatures(
  ctx: SolanaScanContext,
  w: Watched,
  cursor: { signature: string; slot: string } | undefined,
): Promise<SignatureInfo[]> {
  const out: SignatureInfo[] = [];
  let before: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const got = await ctx.reader.signaturesFor(w.account, { until: cursor?.signature, before, limit: PAGE });
    out.push(...got);
    if (got.length < PAGE) break;
    before = got.at(-1)?.signature;
  }
  const sinceSec = (w.since.getTime() - CLOCK_SKEW_MS) / 1000;
  const fromSlot = cursor ? Number(cursor.slot) : 0;
  return out.filter(
    (s) =>
      s.signature !== cursor?.signature &&
      s.slot >= fromSlot &&
      (cursor !== undefined || s.blockTime == null || s.blockTime >= sinceSec),
  );
}

/** getTransaction for each signature, a few at a time; failed ones and those into no watched account dropped. */
async function readAll(
  ctx: SolanaScanContext,
  signatures: SignatureInfo[],
  watched: ReadonlySet<string>,
): Promise<SeenTransfer[]> {
  const todo = signatures.filter((s) => s.err == null);
  const out: SeenTransfer[] = [];
  for (let i = 0; i < todo.length; i += FETCH_CONCURRENCY) {
    const batch = todo.slice(i, i + FETCH_CONCURRENCY);
    const txs = await Promise.all(batch.map((s) => ctx.reader.transaction(s.signature)));
    for (const tx of txs) {
      // Listed but not served (a provider's pool where this node is behind the one that listed it):
      // the step ends, its cursors unmoved, and reads it again next time rather than pass it by.
      if (!tx) throw new SolanaRpcError('getTransaction: a listed transaction is not served yet');
      const seen = readTransfer(tx, watched);
      if (seen && seen.credits.size > 0) out.push(seen);
    }
  }
  return out;
}

/**
 * Credits that carry an invoice's reference, as payments of it (one per transaction, invoice and
 * token): into the token account of the invoice's own wallet only (another wallet's reference pays
 * nothing here), found with one indexed query for the whole batch. A credit without a known
 * reference is recorded on nothing (contract §24).
 */
async function paymentsOf(
  ctx: SolanaScanContext,
  transfers: SeenTransfer[],
  watched: Watched[],
  signatures: ReadonlyMap<string, SignatureInfo>,
): Promise<Reported[]> {
  const keys = [...new Set(transfers.flatMap((t) => t.keys))];
  const byReference = new Map((await invoicesByReference(ctx.db, keys)).map((i) => [i.solana_reference, i]));
  const byAccount = new Map(watched.map((w) => [w.account, w]));
  const reports: Reported[] = [];
  for (const t of transfers) {
    const invoices = t.keys.flatMap((k) => byReference.get(k) ?? []);
    for (const [account, credit] of t.credits) {
      const w = byAccount.get(account);
      const token = ctx.network.mints.get(credit.mint);
      const invoice = invoices.find((i) => i.solana_address === w?.wallet);
      if (!w || !token || credit.mint !== w.mint || !invoice || !mayPay(ctx.network, invoice)) continue;
      reports.push({
        invoiceId: invoice.id,
        observation: {
          kind: 'payment',
          txHash: t.signature,
          network: ctx.network.name,
          currency: token.currency,
          amount: fromTokenUnits(credit.units, token.decimals),
          confirmed: signatures.get(t.signature)?.confirmationStatus === 'finalized',
          accepted: invoice.payment_methods.some(
            (m) => m.network === ctx.network.name && m.currency === token.currency,
          ),
          // Solana has slots, not a chain of hashes to follow: the slot, and the signature as its name.
          block: { number: BigInt(t.slot), hash: t.signature },
        },
      });
    }
  }
  return reports;
}

/**
 * Payments seen at `confirmed` and not yet final: `finalized` confirms them; a transaction the node
 * does not know once the finalized slot has passed its own (its fork was dropped, or it expired) is
 * reversed like a reorganisation (contract §24). A node that lags has a finalized slot behind the
 * payment's, so it reverses nothing it has not seen yet.
 */
async function settle(ctx: SolanaScanContext): Promise<void> {
  const due = await confirmingUpTo(ctx.db, ctx.network.name, BigInt(Number.MAX_SAFE_INTEGER));
  const sent = await refundsSent(ctx.db, ctx.network.name);
  if (due.length === 0 && !sent) return;
  const finalizedSlot = await ctx.reader.slot('finalized');
  if (sent) await confirmBuriedRefunds(ctx.db, refundNetwork(ctx.network), BigInt(finalizedSlot), ctx.now());
  if (due.length === 0) return;
  const status = await statusesOf(ctx.reader, [...new Set(due.map((p) => p.tx_hash))]);
  const reports: Reported[] = [];
  for (const p of due) {
    const s = status.get(p.tx_hash);
    const slot = Number(p.block_number);
    if (s?.confirmationStatus === 'finalized' && s.err == null) {
      reports.push(confirmedPayment(ctx.network.name, p));
    } else if ((s == null && finalizedSlot > slot) || (s != null && s.err != null)) {
      reports.push({
        invoiceId: p.invoice_id,
        observation: { kind: 'reversal', txHash: p.tx_hash, currency: p.currency },
      });
    }
  }
  if (reports.length > 0) await observe(ctx.db, reports, observing(ctx));
}

/** getSignatureStatuses takes at most 256 signatures a call. */
async function statusesOf(reader: SolanaReader, sigs: string[]) {
  const status = new Map<string, SignatureStatus | null>();
  for (let i = 0; i < sigs.length; i += 256) {
    const chunk = sigs.slice(i, i + 256);
    const got = await reader.statuses(chunk);
    for (const [j, sig] of chunk.entries()) status.set(sig, got[j] ?? null);
  }
  return status;
}
