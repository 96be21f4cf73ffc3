import { type Kysely, sql } from 'kysely';
import { audit, type Change } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { COLLECTOR_KEY_VARIABLE, collectorKeyVariable } from '../forwarders/collector-key.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { newId } from '../ids.js';
import * as merchants from '../merchants/repository.js';
import { isTestNetwork } from '../networks/livemode.js';
import type { NetworkRegistry } from '../networks/network.js';
import { rpcVariable } from '../networks/rpc-settings.js';
import { type Collection, collectChannel, gather, toCollection } from './collection.js';
import type { CollectionRow } from './collection.table.js';
import * as deposits from './deposits.repository.js';
import * as repo from './repository.js';

/** At most this many deposits in one transaction (contract §16). */
export const MAX_DEPOSITS = 100;

/** Where collection is possible: the networks, and which of them have a collector key. */
export interface CollectorSettings {
  networks: NetworkRegistry;
  collectorKey: (network: string) => string | undefined;
  /** PAYDESK_COLLECT_MIN_DEPOSIT_USD: a smaller deposit goes only with a larger one of its forwarder. */
  collectMinDepositUsd: string;
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
    const minDeposit = settings.collectMinDepositUsd;
    const rows = await takeAll(tx, {
      projectId,
      network: { name: network, livemode },
      now: change.now,
      minDeposit,
    });
    if (rows.length === 0) throw nothingToCollect(network, minDeposit);
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
  tx: Parameters<typeof deposits.takeDeposits>[0],
  t: {
    projectId: string;
    network: { name: string; livemode: boolean };
    now: Date;
    minDeposit: string;
    failedBefore?: Date | undefined;
  },
): Promise<CollectionRow[]> {
  const made: CollectionRow[] = [];
  for (;;) {
    const c = await deposits.takeDeposits(tx, {
      id: newId('col'),
      projectId: t.projectId,
      network: t.network.name,
      livemode: t.network.livemode,
      now: t.now,
      limit: MAX_DEPOSITS,
      minDeposit: t.minDeposit,
      failedBefore: t.failedBefore,
    });
    if (!c) return made;
    made.push(c);
  }
}

function nothingToCollect(network: string, minDeposit: string): ApiError {
  return ApiError.validation([
    field(
      'network',
      'nothing_to_collect',
      `nothing to collect on ${network}: no confirmed deposit of at least ${minDeposit} USD is waiting in a forwarder (a smaller one is collected only together with a larger deposit to the same address)`,
    ),
  ]);
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
