import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import * as merchants from '../merchants/repository.js';
import { formatMoney, money } from '../money/money.js';
import { gather, toCollection } from './collection.js';
import type { CollectionRow } from './collection.table.js';
import * as deposits from './deposits.repository.js';
import { isOpen, type WaitReason } from './lifecycle.js';
import * as repo from './repository.js';
import type { CollectorSettings } from './service.js';

/** Why an open collection waits, for the owner: the reason, and at the fee cap the fee needed and the cap (wei). */
export interface Waiting {
  reason: WaitReason;
  feeNeeded?: bigint;
  feeCap?: bigint;
}

export function waitingOf(row: CollectionRow): Waiting | undefined {
  if (!isOpen(row.phase) || row.last_error === null) return undefined;
  const reason = row.last_error as WaitReason;
  if (reason !== 'fee_cap') return { reason };
  return { reason, feeNeeded: BigInt(row.fee_needed ?? 0), feeCap: BigInt(row.fee_cap ?? 0) };
}

const totals = (rows: Awaited<ReturnType<typeof deposits.collectableTotals>>, dust: boolean) =>
  rows
    .filter((t) => t.dust === dust)
    .map((t) => ({ token: t.token, amount: formatMoney(money(t.amount)), deposits: Number(t.deposits) }));

/**
 * A project's collections page: per EVM network of its methods, what waits (and what waits for a
 * larger deposit of its forwarder), why collection may not go; its collections, each with why it waits.
 */
export async function collectionOverview(
  db: Kysely<Database>,
  settings: CollectorSettings,
  projectId: string,
) {
  const project = await merchants.findProject(db, projectId);
  if (!project) throw ApiError.notFound('No project with this id');
  const evm = [
    ...new Set(
      project.payment_methods.map((m) => m.network).filter((n) => settings.networks.get(n)?.family === 'evm'),
    ),
  ];
  const states = new Map((await repo.collectorStates(db)).map((s) => [s.network, s]));
  const minDeposit = settings.collectMinDepositUsd;
  const balances = await Promise.all(
    evm.map(async (network) => {
      const rows = await deposits.collectableTotals(db, { projectId, network, minDeposit });
      return {
        network,
        tokens: totals(rows, false),
        dust: totals(rows, true),
        hasKey: settings.collectorKey(network) !== undefined,
        state: states.get(network),
      };
    }),
  );
  const rows = await repo.listCollections(db, projectId);
  const contents = gather(
    await repo.contentsOf(
      db,
      rows.map((r) => r.id),
    ),
  );
  const collections = rows.map((r) => ({
    ...toCollection(r, contents.get(r.id) ?? { deposits: 0, amounts: {} }),
    waiting: waitingOf(r),
  }));
  return { payout: project.payout_address, minDeposit, balances, collections };
}
