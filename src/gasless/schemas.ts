import { Type } from '@sinclair/typebox';

const ADDRESS = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: '0x and 40 hex digits' });
const UINT = Type.String({ pattern: '^[0-9]{1,78}$', description: 'a whole number, as a decimal string' });

/** POST /pay/{id}/authorizations: a payer's signed EIP-3009 transfer (contract §23). */
export const AuthorizationBody = Type.Object(
  {
    network: Type.String({ minLength: 1, maxLength: 32 }),
    authorization: Type.Object(
      {
        from: ADDRESS,
        to: ADDRESS,
        value: UINT,
        validAfter: UINT,
        validBefore: UINT,
        nonce: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: '0x and 64 hex digits' }),
      },
      { additionalProperties: false },
    ),
    signature: Type.String({
      pattern: '^0x[0-9a-fA-F]{130}$',
      description: 'a 65-byte signature, 0x and 130 hex digits',
    }),
  },
  { additionalProperties: false },
);

export const SubmittedSchema = Type.Object({
  network: Type.String(),
  tx_hash: Type.String(),
  payer: Type.String(),
});
