import { type Address, isAddress } from '@solana/kit';
import { invalidParams, RpcError } from './errors.js';
import type { Commitment, Ledger } from './ledger.js';

export const SOLANA_CORE_VERSION = '2.2.7';

/** What every method sees: the ledger, and how far behind the cluster the node answering is. */
export interface View {
  ledger: Ledger;
  lag: number;
  genesisHash: string;
}

export type Method = (params: unknown[], view: View) => unknown;
export type Config = Record<string, unknown>;

export function config(params: unknown[], at: number): Config {
  const value = params[at];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParams('Invalid params: expected a config object');
  return value as Config;
}

export function commitment(c: Config, minimum: Commitment = 'processed'): Commitment {
  const value = c.commitment ?? 'finalized';
  if (value !== 'processed' && value !== 'confirmed' && value !== 'finalized') {
    throw invalidParams(`Invalid params: unknown commitment ${String(value)}`);
  }
  if (minimum === 'confirmed' && value === 'processed') {
    throw invalidParams('Method does not support commitment below `confirmed`');
  }
  return value;
}

/** The slot a read answers from, refusing one below `minContextSlot` as a node does. */
export function contextSlot(view: View, c: Config, at: Commitment): number {
  const slot = view.ledger.bound(at, view.lag);
  if (typeof c.minContextSlot === 'number' && slot < c.minContextSlot) {
    throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: slot });
  }
  return slot;
}

export const withContext = (slot: number, value: unknown) => ({
  context: { apiVersion: SOLANA_CORE_VERSION, slot },
  value,
});

export function addressParam(params: unknown[], at = 0): Address {
  const value = params[at];
  if (typeof value !== 'string' || !isAddress(value)) throw invalidParams('Invalid param: Invalid');
  return value;
}
