import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Network } from '../networks/network.js';
import type { CollectorChain } from './chain.js';
import { changeCollection, type Extras, type Lease } from './change.js';
import type { CollectionRow, CollectorState } from './collection.table.js';
import type { CollectionAction } from './lifecycle.js';

/** One network's collector on one instance: its settings, its chain, and the lease it holds. */
export interface CollectorContext {
  db: Kysely<Database>;
  network: Network;
  /** Undefined without a collector key for this network: nothing is signed, and Settings says why. */
  chain: CollectorChain | undefined;
  /** A project's collectable total (tokens at par, in USD) that starts a collection by itself. */
  minUsd: string;
  /** PAYDESK_COLLECT_MIN_DEPOSIT_USD: a smaller deposit goes only with a larger one of its forwarder. */
  minDepositUsd: string;
  /** PAYDESK_COLLECT_REPLACE_BLOCKS: blocks a transaction may wait unmined before it is replaced. */
  replaceBlocks: number;
  /** PAYDESK_COLLECT_MAX_FEE_GWEI in wei; undefined: no cap. */
  maxFeeWei: bigint | undefined;
  /** This instance, as the collector lease names its holder. */
  holder: string;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** The lease claimed at this instance's first round as leader; dropped when another took it. */
  lease?: Lease | undefined;
  /** What checkCollector last stored, so an unchanged collector costs no write per round. */
  stored?: { state: CollectorState; balance: string | null } | undefined;
}

/** Every change of a collection the collector makes, through the one writer, under its lease. */
export function write(
  ctx: CollectorContext,
  id: string,
  action: CollectionAction,
  extras: Extras = {},
): Promise<CollectionRow> {
  const lease = ctx.lease ?? { network: ctx.network.name, term: '', holder: ctx.holder };
  return changeCollection(ctx.db, lease, id, action, { now: ctx.now(), ...extras });
}
