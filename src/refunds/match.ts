/**
 * Which transfer pays which ready refund (contract §22), as a pure function: the watcher locks the
 * ready refunds to the range's recipients and asks here. Every rule of matching is in this file.
 *
 * - Each transfer (one Transfer log) pays one refund at most, and each refund is paid once: several
 *   transfers to one address in one transaction (a batch payout from the refunds CSV or a Safe) pay
 *   several refunds. Transfers are never added up: a refund is paid by one transfer that covers it.
 * - A transfer pays a refund to its address, in its token, in a block after the one the watcher had
 *   reached when the refund became ready, of at least its amount.
 * - A transfer pays the refund whose amount it equals before any other (a merchant sending 2.00 to a
 *   payer owed 1.00 and 2.00 meant the 2.00), and only then the oldest refund it covers. Exact matches
 *   are made first for every transfer, so a larger transfer never takes the refund a later exact one
 *   was meant for.
 */

export interface DueRefund {
  id: string;
  createdAt: Date;
  address: string;
  /** The token contract, as transfers name it. */
  token: string;
  /** What it is owed, in the token's smallest units. */
  units: bigint;
  /** Only transfers in later blocks pay it; null: any block. */
  afterBlock: bigint | null;
}

export interface SeenTransfer {
  token: string;
  to: string;
  value: bigint;
  txHash: string;
  blockNumber: bigint;
}

export function matchTransfers<R extends DueRefund, T extends SeenTransfer>(
  refunds: readonly R[],
  transfers: readonly T[],
): Array<{ refund: R; transfer: T }> {
  const byAge = [...refunds].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  // Chain order; logs of one block keep the order the node gave them (Array.sort is stable).
  const inOrder = [...transfers].sort((a, b) =>
    a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : 0,
  );
  const paid = new Set<R>();
  const used = new Set<T>();
  const found: Array<{ refund: R; transfer: T }> = [];
  const pass = (fits: (r: R, t: T) => boolean) => {
    for (const transfer of inOrder) {
      if (used.has(transfer)) continue;
      const refund = byAge.find((r) => !paid.has(r) && pays(transfer, r) && fits(r, transfer));
      if (!refund) continue;
      paid.add(refund);
      used.add(transfer);
      found.push({ refund, transfer });
    }
  };
  pass((r, t) => t.value === r.units);
  pass((r, t) => t.value >= r.units);
  return found;
}

function pays(t: SeenTransfer, r: DueRefund): boolean {
  return t.to === r.address && t.token === r.token && (r.afterBlock === null || t.blockNumber > r.afterBlock);
}
