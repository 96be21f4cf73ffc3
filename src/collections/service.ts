import { type Kysely, sql } from 'kysely';
import { audit, type Change } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { COLLECTOR_KEY_VARIABLE, collectorKeyVariable } from '../forwarders/collector-key.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { newId } from '../ids.js';
import * as merchants from '../merchants/repository.js';
import { formatMoney, money } from '../money/money.js';
import { isTestNetwork } from '../networks/livemode.js';
import type { NetworkRegistry } from '../networks/network.js';
import { rpcVariable } from '../networks/rpc-settings.js';
import { type Collection, collectChannel, gather, toCollection } from './collection.js';
import type { CollectionRow } from './collection.table.js';
import * as repo from './repository.js';

/** At most this many deposits in one transaction (contract §16). */
export const MAX_DEPOSITS = 100;

/** Where collection is possible: the networks, and which of them have a collector key. */
export interface CollectorSettings {
  networks: NetworkRegistry;
  collectorKey: (network: string) => string | undefined;
}

/**
 * "Collect now" (contract §16), for the admin API and the dashboard alike: takes the project's
 * confirmed, uncollected deposits on a network into collections of up to 100, writes the audit row in
 * the same transaction, and wakes that network's collector on whichever instance leads it. Answers the
 * first collection made.
 */
export async function collectNow(
  db: Kysely<Database>,
  settings: CollectorSettings,
  projectId: string,
  network: string,
  change: Change,
): Promise<Collection> {
  const problem = collectionOff(settings, network);
  const made = await db.transaction().execute(async (tx) => {
    const project = await merchants.findProject(tx, projectId);
    if (!project) throw ApiError.notFound('No project with this id');
    if (problem) throw ApiError.validation([problem]);
    if (!project.payout_address) {
      throw ApiError.validation([
        field(
          'network',
          'no_payout_address',
          'this project has no payout_address: its deposits go to its own wallet and need no collection',
        ),
      ]);
    }
    const livemode = !isTestNetwork(settings.networks, network);
    const rows = await takeAll(tx, projectId, { name: network, livemode }, change.now);
    if (rows.length === 0) {
      throw ApiError.validation([
        field(
          'network',
          'nothing_to_collect',
          `nothing to collect on ${network}: no confirmed deposit is waiting in a forwarder`,
        ),
      ]);
    }
    await audit(
      tx,
      project.account_id,
      change,
      'collection.requested',
      `${network}: ${rows.map((r) => r.id).join(', ')}`,
    );
    await sql`select pg_notify(${collectChannel(network)}, '')`.execute(tx);
    return rows;
  });
  const first = made[0] as CollectionRow;
  const contents = gather(await repo.contentsOf(db, [first.id]));
  return toCollection(first, contents.get(first.id) ?? { deposits: 0, amounts: {} });
}

/** Deposits into collections of up to 100 until none is left, in the caller's transaction. */
export async function takeAll(
  tx: Parameters<typeof repo.takeDeposits>[0],
  projectId: string,
  network: { name: string; livemode: boolean },
  now: Date,
  failedBefore?: Date,
): Promise<CollectionRow[]> {
  const made: CollectionRow[] = [];
  for (;;) {
    const c = await repo.takeDeposits(tx, {
      id: newId('col'),
      projectId,
      network: network.name,
      livemode: network.livemode,
      now,
      limit: MAX_DEPOSITS,
      failedBefore,
    });
    if (!c) return made;
    made.push(c);
  }
}

/** Why a network cannot collect, whatever the project: not an EVM network, not watched, no collector key. */
export function collectionOff(settings: CollectorSettings, network: string): FieldError | undefined {
  const n = settings.networks.get(network);
  if (n?.family !== 'evm') {
    return field(
      'network',
      'not_evm',
      `${network} is not an EVM network: only EVM deposits are collected (TRON keeps xpub addresses)`,
    );
  }
  if (!n.rpcUrl) {
    return field(
      'network',
      'collection_off',
      `${network} is not watched: the operator sets its RPC URL (${rpcVariable(network)}) first`,
    );
  }
  if (!settings.collectorKey(network)) {
    return field(
      'network',
      'collection_off',
      `collection is off on ${network}: the operator sets a collector key (${COLLECTOR_KEY_VARIABLE}, or ${collectorKeyVariable(network)}) of an account holding only gas money`,
    );
  }
  return undefined;
}

export async function listCollections(db: Kysely<Database>, projectId: string): Promise<Collection[]> {
  const project = await merchants.findProject(db, projectId);
  if (!project) throw ApiError.notFound('No project with this id');
  const rows = await repo.listCollections(db, projectId);
  const contents = gather(
    await repo.contentsOf(
      db,
      rows.map((r) => r.id),
    ),
  );
  return rows.map((r) => toCollection(r, contents.get(r.id) ?? { deposits: 0, amounts: {} }));
}

function field(name: string, rule: string, message: string): FieldError {
  return { in: 'body', field: name, rule, message };
}

/** A project's collections page: per EVM network of its methods, what waits and why it may not go. */
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
  const balances = await Promise.all(
    evm.map(async (network) => ({
      network,
      tokens: (await repo.collectableTotals(db, projectId, network)).map((t) => ({
        token: t.token,
        amount: formatMoney(money(t.amount)),
        deposits: Number(t.deposits),
      })),
      hasKey: settings.collectorKey(network) !== undefined,
      state: states.get(network),
    })),
  );
  return { payout: project.payout_address, balances, collections: await listCollections(db, projectId) };
}
