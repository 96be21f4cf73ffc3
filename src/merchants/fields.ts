import { Type } from '@sinclair/typebox';
import { nullable, StringEnum } from '../http/schemas.js';
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

export const Currency = StringEnum(CURRENCIES);

export const Xpub = nullable(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "The account-level extended public key (BIP32) that deposit addresses are derived from: m/44'/60'/0' on EVM networks, m/44'/195'/0' on TRON; required on a chain, never a private key",
    examples: ['xpub6C…'],
  }),
);

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
    xpub: Type.Optional(Xpub),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** A new API key: POST /v1/admin/projects/{id}/api-keys and the dashboard's "Create key". */
export const NewKeySchema = Type.Object({ name: Type.Optional(KeyName) }, { additionalProperties: false });
