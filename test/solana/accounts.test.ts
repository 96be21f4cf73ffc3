import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uiTokenAmount } from './accounts.js';

describe('uiTokenAmount (what a node writes beside every token balance)', () => {
  it('spells the amount in minor units and as a trimmed decimal that reads back to it', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.integer({ min: 0, max: 9 }),
        (amount, decimals) => {
          const ui = uiTokenAmount(amount, decimals);
          expect(ui.amount).toBe(amount.toString());
          const [whole = '', fraction = ''] = ui.uiAmountString.split('.');
          expect(fraction.endsWith('0')).toBe(false);
          expect(BigInt(whole + fraction.padEnd(decimals, '0'))).toBe(amount);
        },
      ),
    );
  });

  it('writes the cases a watcher meets', () => {
    expect(uiTokenAmount(0n, 6)).toEqual({ amount: '0', decimals: 6, uiAmount: 0, uiAmountString: '0' });
    expect(uiTokenAmount(2_500_000n, 6).uiAmountString).toBe('2.5');
    expect(uiTokenAmount(1n, 6).uiAmountString).toBe('0.000001');
    expect(uiTokenAmount(7n, 0).uiAmountString).toBe('7');
  });
});
