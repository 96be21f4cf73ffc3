import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import type { OfferedMethod } from '../invoices/invoice.table.js';
import { formatMoney, money } from '../money/money.js';
import { isTestNetwork, mayPay } from '../networks/livemode.js';
import type { NetworkRegistry } from '../networks/network.js';
import { type AddressFamily, checkRefundAddress } from './address.js';
import { REFUND_TOKEN_DECIMALS, refundTokens } from './amounts.js';
import { changeRefunds, type Plan } from './change.js';
import * as repo from './claim.repository.js';
import { hashClaimToken, looksLikeClaimToken } from './claim-token.js';
import type { RefundAction } from './lifecycle.js';

export type ClaimView = repo.ClaimRow;

/** The refund a claim link opens, whatever its status; undefined for a link that opens none. */
export async function loadClaim(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  token: string,
): Promise<ClaimView | undefined> {
  if (!looksLikeClaimToken(token)) return undefined;
  const row = await repo.findByClaim(db, hashClaimToken(token));
  return row && { ...row, payment_methods: refundMethods(networks, row) };
}

/**
 * The ways a refund may be received: its invoice's methods, but a live refund never on a test network
 * (contract §21), where a "sent" refund would be faucet tokens (an invoice made before the rule may
 * list one).
 */
function refundMethods(
  networks: NetworkRegistry,
  row: Pick<repo.ClaimRow, 'payment_methods' | 'livemode'>,
): OfferedMethod[] {
  return row.payment_methods.filter((m) => mayPay({ test: isTestNetwork(networks, m.network) }, row));
}

export interface ClaimInput {
  /** `network:currency`, one of the invoice's methods. */
  method?: string | undefined;
  address?: string | undefined;
}

export type ClaimOutcome =
  | { kind: 'claimed'; refund: ClaimView }
  /** The link was used already (or its refund canceled): nothing changes. */
  | { kind: 'used'; refund: ClaimView }
  | { kind: 'unknown' };

export interface ClaimContext {
  now: Date;
  publicBaseUrl: string;
  networks: NetworkRegistry;
}

/**
 * The payer's answer on the claim page: a method among the invoice's and an address on its network.
 * Decided under the refund's row lock, so the link works once: a second submission, at the same time
 * or later, finds the refund no longer awaiting an address. The token amount is fixed here, at the
 * invoice's locked rate, and `refund.ready` is written to the outbox in the same transaction.
 */
export async function claimRefund(
  db: Kysely<Database>,
  token: string,
  input: ClaimInput,
  ctx: ClaimContext,
): Promise<ClaimOutcome> {
  if (!looksLikeClaimToken(token)) return { kind: 'unknown' };
  const tokenHash = hashClaimToken(token);
  let decimals = REFUND_TOKEN_DECIMALS;
  const claim: Plan = async (locked, tx) => {
    const r = locked[0];
    if (r?.status !== 'awaiting_address') return [];
    const { method, address } = checkInput(refundMethods(ctx.networks, r), input, ctx.networks);
    decimals = method.decimals;
    const tokens = refundTokens(money(r.amount), r.rate, method.decimals);
    const action: RefundAction = {
      kind: 'claim',
      network: method.network,
      token: method.currency,
      tokenAmount: formatMoney(tokens),
      address,
      // The watcher's cursor on that network now: only a transfer in a later block pays the refund.
      afterBlock: await repo.watchedUpTo(tx, method.network),
    };
    return [[r, action]];
  };
  const changed = await db
    .transaction()
    .execute((tx) =>
      changeRefunds(tx, { kind: 'claim', tokenHash }, claim, { now: ctx.now, decimals: () => decimals }),
    );
  const refund = await repo.findByClaim(db, tokenHash);
  if (!refund) return { kind: 'unknown' };
  const view = { ...refund, payment_methods: refundMethods(ctx.networks, refund) };
  return { kind: changed.length > 0 ? 'claimed' : 'used', refund: view };
}

function checkInput(methods: OfferedMethod[], input: ClaimInput, networks: NetworkRegistry) {
  const method = methods.find((m) => `${m.network}:${m.currency}` === input.method);
  if (!method) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'method',
        rule: 'not_offered',
        message: 'choose one of the listed ways to receive it',
      },
    ]);
  }
  const family: AddressFamily | undefined =
    method.network === 'sandbox' ? 'sandbox' : networks.get(method.network)?.family;
  if (!family) throw new Error(`${method.network} is no longer configured`);
  const checked = checkRefundAddress(family, input.address ?? '');
  if (!checked.ok) {
    throw ApiError.validation([
      { in: 'body', field: 'address', rule: checked.rule, message: checked.message },
    ]);
  }
  return { method, address: checked.address };
}
