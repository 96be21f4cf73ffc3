import { Type } from '@sinclair/typebox';
import { nullable, StringEnum } from '../http/schemas.js';
import { MAX_METHODS } from '../networks/methods.js';
import { CURRENCIES } from '../networks/network.js';
import { ActiveStatusSchema, MAX_TTL_SECONDS, MIN_TTL_SECONDS } from './merchant.js';

/**
 * The rules of each field of accounts, projects and API keys, defined once. The admin API's route
 * schemas are made of these (and so is the OpenAPI document); the dashboard checks what its forms
 * send against the same schemas (app.checkFields), so a value is refused alike, with the same rule
 * name, whichever surface it comes through.
 */

/** An account's or a project's name: 1 to 100 characters, not only spaces, no control characters. */
export const Name = Type.String({ minLength: 1, maxLength: 100, format: 'display-name' });

/** An API key's name: optional (empty is "unnamed"), at most 100 characters, no control characters. */
export const KeyName = Type.String({ maxLength: 100, format: 'no-control-characters' });

export const NetworkName = Type.String({
  pattern: '^[a-z0-9-]{1,32}$',
  description: '`sandbox`, or a chain network of the registry (see docs/networks.md)',
  examples: ['polygon'],
});

/**
 * The invoice currency (contract §15, §19): USD is paid in USDT or USDC at par, a token only in
 * itself, any other currency at a rate locked per invoice. Which codes a rate source quotes depends on
 * the operator's sources, so that is checked with the payment settings (networks/methods.ts).
 */
export const Currency = Type.String({
  pattern: '^[A-Z]{3,4}$',
  description:
    'What invoices are priced in: `USD` (paid in USDT or USDC at par), `USDT` or `USDC` (only in that token), or an ISO 4217 code an enabled rate source quotes, such as `EUR`, `GBP` or `JPY` (paid in USDT or USDC at a rate locked when the invoice is made)',
  examples: ['USD', 'EUR'],
});

/** A token a network may offer. */
export const Token = StringEnum(CURRENCIES);

export const PaymentMethodSchema = Type.Object(
  { network: NetworkName, currency: Token },
  { additionalProperties: false },
);

export const PaymentMethods = Type.Array(PaymentMethodSchema, {
  minItems: 1,
  maxItems: MAX_METHODS,
  description:
    'Every `{network, currency}` pair invoices may be paid with, in the order the payment page offers them; each a token its network offers and payable in `currency`',
});

const xpubOf = (description: string) =>
  nullable(Type.String({ minLength: 1, maxLength: 200, description, examples: ['xpub6C…'] }));

export const Xpub = xpubOf(
  "The account-level extended public key (BIP32) that deposit addresses are derived from, for a project whose methods are all in one family: m/44'/60'/0' on EVM networks, m/44'/195'/0' on TRON; never a private key",
);
export const EvmXpub = xpubOf(
  "The account-level extended public key (m/44'/60'/0') EVM deposit addresses are derived from; one address serves every EVM network",
);
export const TronXpub = xpubOf(
  "The account-level extended public key (m/44'/195'/0') TRON deposit addresses are derived from",
);

/** Where EVM deposits are collected to (contract §16); the EIP-55 check is the payment settings' (networks/methods.ts). */
export const PayoutAddress = nullable(
  Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    description:
      "An EVM address in its EIP-55 mixed-case form (an ordinary account or a contract wallet such as a Safe). When set, the project's EVM deposit addresses are forwarders that can only ever send to it, collected in one transaction per up to 100 deposits (docs/forwarders.md); null: EVM deposit addresses are evm_xpub children",
    examples: ['0x52908400098527886E0F7030069857D2E4169EE7'],
  }),
);

/** The merchant's Solana wallet (contract §24); checked by the payment settings' one rule (networks/methods.ts). */
export const SolanaAddress = nullable(
  Type.String({
    maxLength: 64,
    description:
      "The merchant's Solana wallet address (base58, an ed25519 public key on the curve): Solana payments go straight into its associated token accounts. Needed when a Solana method is accepted",
    examples: ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'],
  }),
);

export const TolerancePercent = Type.Number({
  minimum: 0,
  maximum: 50,
  multipleOf: 0.01,
  description:
    'An invoice counts as paid once its confirmed payments reach amount × (1 − tolerance / 100): 0 to 50, up to two decimals',
  examples: [0, 1.5],
});

export const InvoiceTtlSeconds = Type.Integer({
  minimum: MIN_TTL_SECONDS,
  maximum: MAX_TTL_SECONDS,
  description: `Invoice lifetime in seconds: ${MIN_TTL_SECONDS} (1 minute) to ${MAX_TTL_SECONDS} (7 days)`,
});

/** A change of a project: PATCH /v1/admin/projects/{id} and the dashboard's Settings. */
export const ProjectChangesSchema = Type.Object(
  {
    status: Type.Optional(ActiveStatusSchema),
    name: Type.Optional(Name),
    invoice_ttl_seconds: Type.Optional(InvoiceTtlSeconds),
    currency: Type.Optional(Currency),
    network: Type.Optional(NetworkName),
    payment_methods: Type.Optional(PaymentMethods),
    xpub: Type.Optional(Xpub),
    evm_xpub: Type.Optional(EvmXpub),
    tron_xpub: Type.Optional(TronXpub),
    payout_address: Type.Optional(PayoutAddress),
    solana_address: Type.Optional(SolanaAddress),
    underpayment_tolerance_percent: Type.Optional(TolerancePercent),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** A new API key: POST /v1/admin/projects/{id}/api-keys and the dashboard's "Create key". */
export const NewKeySchema = Type.Object({ name: Type.Optional(KeyName) }, { additionalProperties: false });
