import type { Kysely } from 'kysely';
import { type Address, getAddress, type Hex } from 'viem';
import type { Database } from '../db/schema.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { hasIdShape } from '../ids.js';
import { stateAt } from '../invoices/lifecycle.js';
import { stateOf } from '../invoices/observe.js';
import type { NetworkRegistry } from '../networks/network.js';
import { relayerChain, SubmitError } from './chain.js';
import { checkAuthorization } from './checks.js';
import { type GaslessOffer, gaslessOffers } from './offer.js';
import * as repo from './repository.js';
import type { TransferAuthorization } from './typed-data.js';

export interface GaslessDeps {
  db: Kysely<Database>;
  networks: NetworkRegistry;
  relayerKey: (network: string) => Hex | undefined;
}

/** A signed transfer as posted: numbers as decimal strings, as wallets and x402 clients write them. */
export interface AuthorizationInput {
  network: string;
  authorization: {
    from: string;
    to: string;
    value: string;
    validAfter: string;
    validBefore: string;
    nonce: string;
  };
  signature: string;
}

export interface Submitted {
  network: string;
  tx_hash: string;
  payer: Address;
}

const invalid = (field: string, rule: string, message: string) =>
  ApiError.validation([{ in: 'body', field, rule, message }]);

/** The invoice's gasless offers at `now` (offer.ts); NOT_FOUND for an unknown or malformed id. */
export async function offersOf(deps: GaslessDeps, id: string, now: Date): Promise<GaslessOffer[]> {
  const found = hasIdShape(id, 'inv') ? await repo.invoiceToAuthorize(deps.db, id) : undefined;
  if (!found) throw ApiError.notFound('No invoice with this id');
  const state = stateAt(stateOf(found.row, found.payments), now);
  return gaslessOffers(deps.networks, deps.relayerKey, found.row, state, now);
}

/**
 * Contract §23: checks a payer's signed transfer for an invoice and submits it with the relayer key.
 * Every refusal is a VALIDATION_ERROR naming the field and the reason, and leaves the invoice as it
 * was; the payment itself is recorded by the chain watcher once the transaction is mined
 * (gasless/watch.ts), like any other. The same authorization posted again answers its transaction.
 */
export async function submitAuthorization(
  deps: GaslessDeps,
  id: string,
  input: AuthorizationInput,
  now: Date,
  source: 'page' | 'x402' = 'page',
): Promise<Submitted> {
  const offers = await offersOf(deps, id, now);
  const offer = offers.find((o) => o.network === input.network);
  if (!offer) {
    const offered = offers.map((o) => o.network).join(', ');
    throw invalid(
      'network',
      'unavailable',
      offered
        ? `this invoice takes signed transfers on ${offered} only`
        : 'this invoice takes no signed transfer now (it is not open, or no gasless method is offered)',
    );
  }
  const a = parse(input);
  const signature = input.signature as Hex;
  const errors = await checkAuthorization(offer, a, signature, now, source === 'x402');
  if (errors.length > 0) throw ApiError.validation(errors);
  const key = {
    network: offer.network,
    token: offer.token.toLowerCase(),
    authorizer: a.from.toLowerCase(),
    nonce: a.nonce.toLowerCase(),
  };
  const before = await repo.findAuthorization(deps.db, key);
  if (before && before.invoice_id !== id)
    throw invalid('authorization.nonce', 'used', 'this authorization pays another invoice');
  if (before?.tx_hash && (await stillStanding(deps, offer, a, before.tx_hash))) {
    return { network: offer.network, tx_hash: before.tx_hash, payer: a.from };
  }
  return send(deps, offer, a, signature, key, now, id, source);
}

/**
 * The same authorization posted again answers its transaction while that can still pay: used on the
 * token, or known to the node. One a reorganisation dropped (unused, unknown) is sent again.
 */
async function stillStanding(deps: GaslessDeps, offer: GaslessOffer, a: TransferAuthorization, hash: string) {
  const chain = chainFor(deps, offer.network);
  try {
    return (await chain.used(offer.token, a.from, a.nonce)) || (await chain.knows(hash as Hex));
  } catch (err) {
    if (err instanceof SubmitError) throw submitFailure(err, offer.label);
    throw err;
  }
}

/**
 * x402's settlement is a mined transaction (the "exact" scheme): waits for the relayer's up to
 * `timeoutMs`. False when it reverted (someone else's transaction used the authorization first: the
 * watcher credits that one), undefined when none came in time (the watcher credits it when it does).
 */
export async function settled(deps: GaslessDeps, submitted: Submitted, timeoutMs: number) {
  try {
    return await chainFor(deps, submitted.network).mined(submitted.tx_hash as Hex, timeoutMs);
  } catch (err) {
    if (err instanceof SubmitError) return undefined;
    throw err;
  }
}

function chainFor(deps: GaslessDeps, name: string) {
  const network = deps.networks.get(name);
  const relayerKey = deps.relayerKey(name);
  if (!network?.rpcUrl || !relayerKey) throw invalid('network', 'unavailable', 'no relayer on this network');
  return relayerChain({ name: network.name, chainId: network.chainId, rpcUrl: network.rpcUrl }, relayerKey);
}

async function send(
  deps: GaslessDeps,
  offer: GaslessOffer,
  a: TransferAuthorization,
  signature: Hex,
  key: { network: string; token: string; authorizer: string; nonce: string },
  now: Date,
  invoiceId: string,
  source: 'page' | 'x402',
): Promise<Submitted> {
  const network = deps.networks.get(offer.network);
  const relayerKey = deps.relayerKey(offer.network);
  if (!network?.rpcUrl || !relayerKey) throw invalid('network', 'unavailable', 'no relayer on this network');
  const chain = relayerChain(
    { name: network.name, chainId: network.chainId, rpcUrl: network.rpcUrl },
    relayerKey,
  );
  try {
    await refuseOnChain(chain, offer, a);
    await chain.simulate(offer.token, a, signature);
    await repo.recordAuthorization(deps.db, {
      ...key,
      invoice_id: invoiceId,
      payee: offer.payTo.toLowerCase(),
      value: a.value.toString(),
      valid_before: new Date(Number(a.validBefore) * 1000),
      source,
      tx_hash: null,
      created_at: now,
    });
    const hash = await chain.submit(offer.token, a, signature);
    await repo.setTransaction(deps.db, key, hash);
    return { network: offer.network, tx_hash: hash, payer: a.from };
  } catch (err) {
    if (!(err instanceof SubmitError)) throw err;
    throw submitFailure(err, offer.label);
  }
}

/** The payer's side on the chain: the authorization unused, the balance there. */
async function refuseOnChain(
  chain: ReturnType<typeof relayerChain>,
  offer: GaslessOffer,
  a: TransferAuthorization,
): Promise<void> {
  const errors: FieldError[] = [];
  if (await chain.used(offer.token, a.from, a.nonce)) {
    errors.push({
      in: 'body',
      field: 'authorization.nonce',
      rule: 'used',
      message: 'this authorization has already been used or canceled on the token',
    });
  } else if ((await chain.tokenBalance(offer.token, a.from)) < a.value) {
    errors.push({
      in: 'body',
      field: 'authorization.from',
      rule: 'balance',
      message: `${getAddress(a.from)} holds less ${offer.currency} than the amount due on ${offer.label}`,
    });
  }
  if (errors.length > 0) throw ApiError.validation(errors);
}

function submitFailure(err: SubmitError, label: string): ApiError {
  if (err.reason === 'rejected') {
    return invalid(
      'authorization',
      'rejected',
      `the token refused the transfer: ${err.detail ?? 'no reason given'}`,
    );
  }
  if (err.reason === 'no_gas') {
    return invalid(
      'network',
      'relayer',
      `gasless payment is unavailable on ${label} now: pay from the address instead`,
    );
  }
  return new ApiError('INTERNAL_SERVER_ERROR', `the ${label} node did not answer: try again in a moment`, {
    statusCode: 503,
  });
}

function parse(input: AuthorizationInput): TransferAuthorization {
  const { authorization: a } = input;
  return {
    from: getAddress(a.from),
    to: getAddress(a.to),
    value: BigInt(a.value),
    validAfter: BigInt(a.validAfter),
    validBefore: BigInt(a.validBefore),
    nonce: a.nonce.toLowerCase() as Hex,
  };
}
