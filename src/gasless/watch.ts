import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Reported } from '../invoices/observe.js';
import { fromTokenUnits } from '../money/money.js';
import type { Currency } from '../networks/network.js';
import type { GaslessAuthorizationRow } from './authorization.table.js';
import { authorizationsToWatch } from './repository.js';

/**
 * How a chain watcher tells which invoice a signed transfer pays (contract §23). The transfer goes to
 * the project's payout address, not to an address of the invoice, and its Transfer log carries no
 * nonce; the token's AuthorizationUsed(authorizer, nonce) log of the same transaction does. An
 * authorization Paydesk accepted for an invoice (gasless_authorizations) names the invoice; the
 * payment is what that transaction moved from the authorizer to the recorded payout address in that
 * token, whoever submitted it. A payer who signed another transfer with the same nonce (to elsewhere,
 * or less) pays the invoice only what reached its payout address.
 */

/** Lower-case hex everywhere, as chain logs name them. */
export interface UsedLog {
  token: string;
  authorizer: string;
  nonce: string;
  txHash: string;
  blockNumber: bigint;
  blockHash: string;
}

export interface MovedLog {
  token: string;
  from: string;
  to: string;
  value: bigint;
  txHash: string;
}

/** How far back an authorization is still looked for: a watcher catching up reads old blocks. */
const LOOK_BACK_MS = 24 * 60 * 60_000;

/** The authorizations a watcher of `network` looks for now; none: it asks the node nothing more. */
export function awaitedAuthorizations(db: Kysely<Database>, network: string, now: Date) {
  return authorizationsToWatch(db, network, new Date(now.getTime() - LOOK_BACK_MS));
}

export function gaslessPayments(
  network: { name: string; byContract: ReadonlyMap<string, { currency: Currency; decimals: number }> },
  awaited: readonly GaslessAuthorizationRow[],
  used: readonly UsedLog[],
  transfers: readonly MovedLog[],
  buriedUpTo: bigint,
): Reported[] {
  const byKey = new Map(awaited.map((a) => [`${a.token} ${a.authorizer} ${a.nonce}`, a]));
  const reports: Reported[] = [];
  for (const log of used) {
    const record = byKey.get(`${log.token} ${log.authorizer} ${log.nonce}`);
    const token = network.byContract.get(log.token);
    if (!record || !token) continue;
    const units = transfers
      .filter(
        (t) =>
          t.txHash === log.txHash &&
          t.token === log.token &&
          t.from === log.authorizer &&
          t.to.toLowerCase() === record.payee,
      )
      .reduce((total, t) => total + t.value, 0n);
    if (units === 0n) continue;
    reports.push({
      invoiceId: record.invoice_id,
      observation: {
        kind: 'payment',
        txHash: log.txHash,
        network: network.name,
        currency: token.currency,
        amount: fromTokenUnits(units, token.decimals),
        confirmed: log.blockNumber <= buriedUpTo,
        // Checked against the invoice's methods when it was accepted (gasless/checks.ts).
        accepted: true,
        block: { number: log.blockNumber, hash: log.blockHash },
      },
    });
  }
  return reports;
}
