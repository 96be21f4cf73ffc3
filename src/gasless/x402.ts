import { ApiError } from '../http/errors.js';
import type { GaslessOffer } from './offer.js';
import {
  type AuthorizationInput,
  type GaslessDeps,
  offersOf,
  type Submitted,
  settled,
  submitAuthorization,
} from './service.js';

/**
 * x402 version 2 on the payment page's URL (contract §23), Paydesk being its own facilitator: the
 * requirements of an invoice (one `accepts` entry per gasless method, scheme `exact`), and the
 * settlement of a client's PAYMENT-SIGNATURE through the same checks and relayer as the wallet button.
 * Header values are base64 of JSON, as @x402/core encodes them.
 */
export const X402_VERSION = 2;
/** How long a settlement waits for its transaction to be mined before answering anyway. */
const SETTLE_WAIT_MS = 30_000;

/** An x402 client signs `validBefore = now + maxTimeoutSeconds` by its own clock: this much is left for skew. */
const CLOCK_MARGIN_SECONDS = 60n;
const MAX_TIMEOUT_SECONDS = 300n;
/** Below this, an invoice about to expire is offered no x402 payment (its window would be too short). */
const MIN_TIMEOUT_SECONDS = 60n;

export interface PaymentRequirements {
  scheme: 'exact';
  network: string;
  asset: string;
  amount: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export interface PaymentRequired {
  x402Version: number;
  error?: string;
  resource: { url: string; description: string; mimeType: string };
  accepts: PaymentRequirements[];
}

export const caip2 = (chainId: number) => `eip155:${chainId}`;

function requirements(offer: GaslessOffer, now: Date): PaymentRequirements | undefined {
  const left = offer.validBefore - BigInt(Math.floor(now.getTime() / 1000)) - CLOCK_MARGIN_SECONDS;
  const timeout = left < MAX_TIMEOUT_SECONDS ? left : MAX_TIMEOUT_SECONDS;
  if (timeout < MIN_TIMEOUT_SECONDS) return undefined;
  return {
    scheme: 'exact',
    network: caip2(offer.chainId),
    asset: offer.token,
    amount: offer.units.toString(),
    payTo: offer.payTo,
    maxTimeoutSeconds: Number(timeout),
    extra: { name: offer.domain.name, version: offer.domain.version },
  };
}

/** The invoice's x402 requirements; undefined when nothing can pay it over x402 now. */
export async function paymentRequired(
  deps: GaslessDeps,
  id: string,
  url: string,
  now: Date,
  error?: string,
): Promise<PaymentRequired | undefined> {
  const accepts = (await offersOf(deps, id, now)).flatMap((o) => requirements(o, now) ?? []);
  if (accepts.length === 0) return undefined;
  return {
    x402Version: X402_VERSION,
    ...(error ? { error } : {}),
    resource: { url, description: `Paydesk invoice ${id}`, mimeType: 'application/json' },
    accepts,
  };
}

export const encodeHeader = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

/** A PAYMENT-SIGNATURE header: base64 JSON of { x402Version: 2, accepted, payload: { authorization, signature } }. */
export function decodePaymentSignature(header: string): {
  network: string;
  input: Omit<AuthorizationInput, 'network'>;
} {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    throw invalidHeader('is not base64 of JSON');
  }
  const v = value as {
    x402Version?: unknown;
    accepted?: { scheme?: unknown; network?: unknown };
    payload?: { authorization?: Record<string, unknown>; signature?: unknown };
  };
  if (v?.x402Version !== X402_VERSION) throw invalidHeader(`must be x402 version ${X402_VERSION}`);
  if (v.accepted?.scheme !== 'exact' || typeof v.accepted.network !== 'string') {
    throw invalidHeader('must carry the accepted requirements (scheme "exact" and a network)');
  }
  const a = v.payload?.authorization;
  const fields = ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'] as const;
  if (!a || typeof v.payload?.signature !== 'string' || fields.some((f) => typeof a[f] !== 'string')) {
    throw invalidHeader(
      'must carry payload.authorization (from, to, value, validAfter, validBefore, nonce) and payload.signature',
    );
  }
  const authorization = Object.fromEntries(
    fields.map((f) => [f, a[f] as string]),
  ) as AuthorizationInput['authorization'];
  return { network: v.accepted.network, input: { authorization, signature: v.payload.signature } };
}

const invalidHeader = (why: string) =>
  ApiError.validation([
    { in: 'header', field: 'PAYMENT-SIGNATURE', rule: 'format', message: `PAYMENT-SIGNATURE ${why}` },
  ]);

const SHAPES = {
  address: /^0x[0-9a-fA-F]{40}$/,
  uint: /^[0-9]{1,78}$/,
  nonce: /^0x[0-9a-fA-F]{64}$/,
  signature: /^0x[0-9a-fA-F]{130}$/,
};

/**
 * Settles a PAYMENT-SIGNATURE for invoice `id`: the network named by its CAIP-2 id among the invoice's
 * gasless methods, the checks of the wallet button (any nonce: x402 clients draw their own), the
 * relayer's submission. Throws the same VALIDATION_ERRORs.
 */
export async function settle(
  deps: GaslessDeps,
  id: string,
  header: string,
  now: Date,
): Promise<Submitted & { caip2: string; mined: boolean }> {
  const { network: wanted, input } = decodePaymentSignature(header);
  const a = input.authorization;
  const malformed =
    !SHAPES.address.test(a.from) ||
    !SHAPES.address.test(a.to) ||
    !SHAPES.uint.test(a.value) ||
    !SHAPES.uint.test(a.validAfter) ||
    !SHAPES.uint.test(a.validBefore) ||
    !SHAPES.nonce.test(a.nonce) ||
    !SHAPES.signature.test(input.signature);
  if (malformed)
    throw invalidHeader(
      'carries a field that is not an address, a whole number, a 32-byte nonce or a 65-byte signature',
    );
  const offer = (await offersOf(deps, id, now)).find((o) => caip2(o.chainId) === wanted);
  const network = offer?.network ?? wanted;
  const submitted = await submitAuthorization(deps, id, { network, ...input }, now, 'x402');
  const mined = await settled(deps, submitted, SETTLE_WAIT_MS);
  if (mined === false) {
    throw ApiError.validation([
      {
        in: 'header',
        field: 'PAYMENT-SIGNATURE',
        rule: 'rejected',
        message: `the transfer's transaction ${submitted.tx_hash} failed on the chain`,
      },
    ]);
  }
  return { ...submitted, caip2: wanted, mined: mined === true };
}
