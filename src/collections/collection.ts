import { Type } from '@sinclair/typebox';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import { formatMoney, money } from '../money/money.js';
import { LivemodeSchema } from '../networks/livemode.js';
import type { CollectionPhase, CollectionRow, CollectionStatus } from './collection.table.js';

/** The NOTIFY channel that wakes a network's collector ("Collect now" on any instance). */
export const collectChannel = (network: string) => `collect_${network.replaceAll('-', '_')}`;

export const COLLECTION_STATUSES = [
  'pending',
  'confirmed',
  'failed',
] as const satisfies readonly CollectionStatus[];

/** The API's status, read off the phase: every phase before the end is `pending`. */
export const statusOf = (phase: CollectionPhase): CollectionStatus =>
  phase === 'confirmed' || phase === 'failed' ? phase : 'pending';

export const CollectionSchema = Type.Object(
  {
    id: Type.String({ examples: ['col_4gT8qLz2NwX7bVc9Rm3Kp5Yd'] }),
    project_id: Type.String(),
    network: Type.String({ examples: ['polygon'] }),
    livemode: LivemodeSchema,
    status: StringEnum(COLLECTION_STATUSES, {
      description:
        '`pending` until its transaction is confirmed (it may be waiting to be sent, for gas, or for confirmations), then `confirmed`; `failed` when its transaction reverted or was replaced: its deposits are then collected by a later collection',
    }),
    tx_hash: nullable(Type.String({ description: 'Null until the collector has signed it' })),
    deposits: Type.Integer({ description: 'How many deposits (a forwarder and a token) it moves' }),
    amounts: Type.Record(Type.String(), Type.String(), {
      description: 'What it moves, per token, as decimal strings',
      examples: [{ USDT: '120.50', USDC: '30.00' }],
    }),
    gas_used: nullable(Type.Integer({ description: 'Gas its transaction used, once mined' })),
    created_at: Timestamp,
    confirmed_at: nullable(Timestamp),
  },
  { $id: 'Collection', title: 'Collection' },
);

export interface Contents {
  deposits: number;
  amounts: Record<string, string>;
}

/** The one place a collection row becomes its API shape (contract §16). */
export function toCollection(row: CollectionRow, contents: Contents) {
  return {
    id: row.id,
    project_id: row.project_id,
    network: row.network,
    livemode: row.livemode,
    status: statusOf(row.phase),
    tx_hash: row.tx_hash,
    deposits: contents.deposits,
    amounts: contents.amounts,
    gas_used: row.gas_used === null ? null : Number(row.gas_used),
    created_at: row.created_at.toISOString(),
    confirmed_at: row.confirmed_at?.toISOString() ?? null,
  };
}

export type Collection = ReturnType<typeof toCollection>;

/** Rows of contentsOf (repository.ts) gathered per collection. */
export function gather(
  rows: ReadonlyArray<{ collection_id: string; token: string; amount: string; deposits: string }>,
): Map<string, Contents> {
  const out = new Map<string, Contents>();
  for (const r of rows) {
    const c = out.get(r.collection_id) ?? { deposits: 0, amounts: {} };
    c.deposits += Number(r.deposits);
    c.amounts[r.token] = formatMoney(money(r.amount));
    out.set(r.collection_id, c);
  }
  return out;
}
