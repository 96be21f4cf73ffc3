import { Type } from '@sinclair/typebox';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import { LivemodeSchema, livemodeOf } from '../networks/livemode.js';
import type { NetworkRegistry } from '../networks/network.js';
import type { AccountRow, ApiKeyRow, ProjectRow } from './merchant.table.js';

/** What the API says about accounts, projects and keys; the mappers below are the only way to it. */
export const ActiveStatusSchema = StringEnum(['active', 'inactive']);
export const MIN_TTL_SECONDS = 60;
export const MAX_TTL_SECONDS = 604_800;

export const AccountSchema = Type.Object(
  {
    id: Type.String({ examples: ['acct_3kTqV9nWcY2pL8sZ4bR7xM1d'] }),
    name: Type.String(),
    status: ActiveStatusSchema,
    created_at: Timestamp,
  },
  { $id: 'Account', title: 'Account' },
);

export const ProjectSchema = Type.Object(
  {
    id: Type.String({ examples: ['prj_8fJd2LkQ9wPz4XcV7bN1mR5t'] }),
    account_id: Type.String(),
    name: Type.String(),
    status: ActiveStatusSchema,
    livemode: LivemodeSchema,
    currency: Type.String({ description: 'The invoice currency: USD, USDT or USDC', examples: ['USDT'] }),
    network: Type.String({ description: "The first payment method's network", examples: ['sandbox'] }),
    payment_methods: Type.Array(
      Type.Object({
        network: Type.String({ examples: ['tron'] }),
        currency: Type.String({ examples: ['USDT'] }),
      }),
      { description: "Every way invoices may be paid, in the payment page's order" },
    ),
    xpub: nullable(
      Type.String({
        description: 'The extended public key deposit addresses come from, when there is only one',
      }),
    ),
    evm_xpub: nullable(Type.String({ description: 'The key EVM deposit addresses come from' })),
    tron_xpub: nullable(Type.String({ description: 'The key TRON deposit addresses come from' })),
    payout_address: nullable(
      Type.String({
        description: 'Where EVM deposits are collected to; set, EVM deposit addresses are forwarders',
      }),
    ),
    solana_address: nullable(
      Type.String({
        description: "The merchant's Solana wallet: its token accounts receive Solana payments",
      }),
    ),
    underpayment_tolerance_percent: Type.Number({ examples: [0, 1.5] }),
    invoice_ttl_seconds: Type.Integer(),
    created_at: Timestamp,
  },
  { $id: 'Project', title: 'Project' },
);

export const ApiKeySchema = Type.Object(
  {
    id: Type.String({ examples: ['key_Vb7Qk2Lm9Xz4Pw8Nc3Rt6Yh1'] }),
    name: Type.String(),
    last4: Type.String({
      description: 'The last 4 characters of the secret; the secret itself is never shown again',
    }),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
    created_at: Timestamp,
    last_used_at: nullable(Timestamp),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);

export function toAccount(row: AccountRow) {
  return { id: row.id, name: row.name, status: row.status, created_at: row.created_at.toISOString() };
}

/** `networks` say which methods are test (contract §21): a project is live when any method is. */
export function toProject(row: ProjectRow, networks: NetworkRegistry) {
  return {
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    status: row.status,
    livemode: livemodeOf(networks, row.payment_methods),
    currency: row.currency,
    network: row.network,
    payment_methods: row.payment_methods.map(({ network, currency }) => ({ network, currency })),
    xpub: row.xpub,
    evm_xpub: row.evm_xpub,
    tron_xpub: row.tron_xpub,
    payout_address: row.payout_address,
    solana_address: row.solana_address,
    underpayment_tolerance_percent: Number(row.underpayment_tolerance_percent),
    invoice_ttl_seconds: row.invoice_ttl_seconds,
    created_at: row.created_at.toISOString(),
  };
}

export function toApiKey(row: Omit<ApiKeyRow, 'key_hash'>) {
  return {
    id: row.id,
    name: row.name,
    last4: row.last4,
    status: row.status,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}
