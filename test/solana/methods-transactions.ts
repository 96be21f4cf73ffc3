import { getBase58Encoder, getBase64Encoder } from '@solana/kit';
import { FailedTransactionMetadata } from 'litesvm';
import { encodeTransaction, readEncoding, signatureInfo } from './encode.js';
import { describeTransactionError, invalidParams, RpcError, rpcTransactionError } from './errors.js';
import type { Landed } from './ledger.js';
import { commitment, config, contextSlot, type Method, type View, withContext } from './params.js';

function wireParam(params: unknown[], encoding: unknown): Uint8Array {
  const text = params[0];
  if (typeof text !== 'string') throw invalidParams('Invalid params: expected an encoded transaction');
  if (encoding !== undefined && encoding !== 'base58' && encoding !== 'base64') {
    throw invalidParams(`Invalid params: unsupported encoding ${String(encoding)}`);
  }
  try {
    return new Uint8Array((encoding === 'base64' ? getBase64Encoder() : getBase58Encoder()).encode(text));
  } catch {
    throw invalidParams(`invalid transaction: failed to decode ${String(encoding ?? 'base58')} string`);
  }
}

function decodeParam(view: View, params: unknown[], encoding: unknown) {
  const wire = wireParam(params, encoding);
  try {
    return view.ledger.decode(wire);
  } catch (error) {
    throw invalidParams(`invalid transaction: ${(error as Error).message}`);
  }
}

const fullySigned = (d: { transaction: { signatures: Record<string, unknown> } }) =>
  Object.values(d.transaction.signatures).every((s) => s !== null);

const signatureFailure = () => new RpcError(-32003, 'Transaction signature verification failure');

const preflightFailure = (err: unknown, logs: string[], unitsConsumed = 0n) =>
  new RpcError(-32002, `Transaction simulation failed: ${describeTransactionError(err)}`, {
    accounts: null,
    err,
    innerInstructions: null,
    logs,
    replacementBlockhash: null,
    returnData: null,
    unitsConsumed,
  });

/**
 * sendTransaction as a node runs it: a preflight simulation first (unless skipPreflight), then the
 * transaction lands in the current slot. Without preflight a transaction that cannot land is
 * accepted and silently never appears, as a real leader drops it.
 */
const sendTransaction: Method = (p, v) => {
  const c = config(p, 1);
  const decoded = decodeParam(v, p, c.encoding);
  const preflight = c.skipPreflight !== true;
  const fail = (err: unknown, logs: string[] = []) => {
    if (!preflight) return decoded.signature;
    if (err === 'SignatureFailure') throw signatureFailure();
    throw preflightFailure(err, logs);
  };
  if (!fullySigned(decoded)) return fail('SignatureFailure');
  if (v.ledger.find(decoded.signature)) return fail('AlreadyProcessed');
  if (!v.ledger.blockhashValid(decoded.message.lifetimeToken)) return fail('BlockhashNotFound');
  if (preflight) {
    const sim = v.ledger.svm.simulateTransaction(decoded.transaction);
    if (sim instanceof FailedTransactionMetadata) {
      const err = rpcTransactionError(sim.err());
      if (err === 'SignatureFailure') throw signatureFailure();
      throw preflightFailure(err, sim.meta().logs(), sim.meta().computeUnitsConsumed());
    }
  }
  const result = v.ledger.land(decoded);
  if ('rejected' in result) return fail(result.rejected, result.logs);
  return decoded.signature;
};

const simulateTransaction: Method = (p, v) => {
  const c = config(p, 1);
  const decoded = decodeParam(v, p, c.encoding);
  const svm = v.ledger.svm;
  if (c.sigVerify === true && !fullySigned(decoded)) throw signatureFailure();
  // A node checks signatures in simulation only when asked (sigVerify); wallets simulate unsigned messages.
  if (c.sigVerify !== true) svm.withSigverify(false);
  const sim = svm.simulateTransaction(decoded.transaction);
  svm.withSigverify(true);
  const failed = sim instanceof FailedTransactionMetadata;
  const meta = sim.meta();
  // The ledger checks lifetimes, LiteSVM does not: a simulation runs whatever the blockhash.
  const replacement =
    c.replaceRecentBlockhash === true ? v.ledger.latestBlockhash(commitment(c), v.lag) : null;
  return withContext(contextSlot(v, c, commitment(c)), {
    accounts: null,
    err: failed ? rpcTransactionError(sim.err()) : null,
    innerInstructions: null,
    logs: meta.logs(),
    replacementBlockhash: replacement && {
      blockhash: replacement.blockhash,
      lastValidBlockHeight: replacement.lastValidBlockHeight,
    },
    returnData: null,
    unitsConsumed: meta.computeUnitsConsumed(),
  });
};

const getSignatureStatuses: Method = (p, v) => {
  const signatures = p[0];
  if (!Array.isArray(signatures)) throw invalidParams('Invalid params: expected an array of signatures');
  if (signatures.length > 256) throw invalidParams('Too many inputs provided; max 256');
  const tip = v.ledger.bound('processed', v.lag);
  const value = signatures.map((s) => {
    const tx = v.ledger.find(String(s));
    const status = tx && v.ledger.statusOf(tx, v.lag);
    if (!tx || !status) return null;
    return {
      confirmationStatus: status,
      confirmations: status === 'finalized' ? null : tip - tx.slot,
      err: tx.outcome.err,
      slot: tx.slot,
      status: tx.outcome.err === null ? { Ok: null } : { Err: tx.outcome.err },
    };
  });
  return withContext(tip, value);
};

/**
 * Newest first. `before` and `until` are exclusive; a `before` the node does not have (a dropped
 * transaction's, say) yields nothing, as on Agave.
 */
const getSignaturesForAddress: Method = (p, v) => {
  const address = String(p[0]);
  const c = config(p, 1);
  const at = commitment(c, 'confirmed');
  const bound = contextSlot(v, c, at);
  const limit = c.limit ?? 1000;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw invalidParams('Invalid limit; max 1000');
  }
  let list = v.ledger.forAddress(address).filter((tx) => tx.slot <= bound);
  if (c.before !== undefined) {
    const i = list.findIndex((tx) => tx.signature === c.before);
    list = i < 0 ? [] : list.slice(0, i);
  }
  if (c.until !== undefined) {
    const i = list.findIndex((tx) => tx.signature === c.until);
    if (i >= 0) list = list.slice(i + 1);
  }
  return list
    .slice(-limit)
    .reverse()
    .map((tx) => signatureInfo(tx, v.ledger.statusOf(tx, v.lag) as 'confirmed' | 'finalized'));
};

const getTransaction: Method = (p, v) => {
  // The second parameter may be the encoding alone (the old form).
  const c = typeof p[1] === 'string' ? { encoding: p[1] } : config(p, 1);
  const at = commitment(c, 'confirmed');
  const tx: Landed | undefined = v.ledger.find(String(p[0]));
  if (!tx || tx.slot > v.ledger.bound(at, v.lag)) return null;
  const encoding = readEncoding(c.encoding, ['json', 'jsonParsed', 'base64', 'base58'], 'json');
  const max = c.maxSupportedTransactionVersion;
  if (max !== undefined && max !== 0) throw invalidParams('Invalid params: maxSupportedTransactionVersion');
  return encodeTransaction(tx, { encoding, maxSupportedTransactionVersion: max });
};

export const transactionMethods: Record<string, Method> = {
  sendTransaction,
  simulateTransaction,
  getSignatureStatuses,
  getSignaturesForAddress,
  getTransaction,
};
