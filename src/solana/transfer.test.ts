import { describe, expect, test } from 'vitest';
import type { RpcTransaction } from './rpc.js';
import { readTransfer } from './transfer.js';

// getTransaction's `json` answer as a node gives it (fields the watcher does not read left out).
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const balance = (accountIndex: number, amount: string, mint = USDC) => ({
  accountIndex,
  mint,
  owner: 'owner',
  uiTokenAmount: { amount, decimals: 6 },
});
const tx = (over: Partial<NonNullable<RpcTransaction['meta']>> = {}): RpcTransaction => ({
  slot: 42,
  transaction: {
    signatures: ['SIG'],
    message: { accountKeys: ['payer', 'payerAta', 'merchantAta', 'REF', 'token'] },
  },
  meta: {
    err: null,
    loadedAddresses: { writable: [], readonly: [] },
    preTokenBalances: [balance(1, '5000000'), balance(2, '1000000')],
    postTokenBalances: [balance(1, '2500000'), balance(2, '3500000')],
    ...over,
  },
});

describe('a transaction read for the watcher', () => {
  test('credits the watched account with the difference of its balances, and lists every key', () => {
    const seen = readTransfer(tx(), new Set(['merchantAta']));
    expect(seen).toEqual({
      signature: 'SIG',
      slot: 42,
      keys: ['payer', 'payerAta', 'merchantAta', 'REF', 'token'],
      credits: new Map([['merchantAta', { mint: USDC, units: 2_500_000n }]]),
    });
  });

  test('an account created in the transaction counts from zero; keys loaded from a table count too', () => {
    const seen = readTransfer(
      tx({
        loadedAddresses: { writable: ['lutAta'], readonly: ['lutRef'] },
        preTokenBalances: [balance(1, '5000000')],
        postTokenBalances: [balance(1, '0'), balance(5, '5000000')],
      }),
      new Set(['lutAta']),
    );
    expect(seen?.keys.slice(-2)).toEqual(['lutAta', 'lutRef']);
    expect(seen?.credits.get('lutAta')).toEqual({ mint: USDC, units: 5_000_000n });
  });

  test('money leaving the account, a failed transaction and an unwatched account credit nothing', () => {
    expect(readTransfer(tx(), new Set(['payerAta']))?.credits.size).toBe(0);
    expect(
      readTransfer(tx({ err: { InstructionError: [0, 'Custom'] } }), new Set(['merchantAta'])),
    ).toBeUndefined();
    expect(readTransfer(tx(), new Set(['other']))?.credits.size).toBe(0);
  });
});
