import { describe, expect, test } from 'vitest';
import { bump, firstFees, formatGwei, gweiToWei, replacementFees } from './fees.js';

const gwei = (n: number) => BigInt(Math.round(n * 1e9));

describe('collection fees (contract §22)', () => {
  test('a first transaction offers twice the next base fee plus the tip, under the cap', () => {
    expect(firstFees({ baseFee: gwei(10), tip: gwei(1) }, undefined)).toEqual({
      ok: true,
      fees: { maxFeePerGas: gwei(21), maxPriorityFeePerGas: gwei(1) },
    });
    expect(firstFees({ baseFee: gwei(10), tip: gwei(1) }, gwei(15))).toEqual({
      ok: true,
      fees: { maxFeePerGas: gwei(15), maxPriorityFeePerGas: gwei(1) },
    });
    expect(firstFees({ baseFee: gwei(20), tip: gwei(1) }, gwei(15))).toEqual({ ok: false, needed: gwei(21) });
  });

  test('a replacement raises both fees by at least 12.5 %, and to what the base fee needs', () => {
    const old = { maxFeePerGas: gwei(8), maxPriorityFeePerGas: gwei(1) };
    const calm = replacementFees(old, { baseFee: gwei(1), tip: gwei(1) }, undefined);
    expect(calm).toEqual({ ok: true, fees: { maxFeePerGas: gwei(9), maxPriorityFeePerGas: gwei(1.125) } });
    const spike = replacementFees(old, { baseFee: gwei(100), tip: gwei(2) }, undefined);
    expect(spike).toEqual({ ok: true, fees: { maxFeePerGas: gwei(202), maxPriorityFeePerGas: gwei(2) } });
  });

  test('never above the cap: offered up to it, or none and the fee needed', () => {
    const old = { maxFeePerGas: gwei(8), maxPriorityFeePerGas: gwei(1) };
    expect(replacementFees(old, { baseFee: gwei(100), tip: gwei(2) }, gwei(150))).toEqual({
      ok: true,
      fees: { maxFeePerGas: gwei(150), maxPriorityFeePerGas: gwei(2) },
    });
    expect(replacementFees(old, { baseFee: gwei(100), tip: gwei(2) }, gwei(50))).toEqual({
      ok: false,
      needed: gwei(102),
    });
    // The bump alone can pass the cap.
    expect(replacementFees(old, { baseFee: 1n, tip: 1n }, gwei(8.5))).toEqual({ ok: false, needed: gwei(9) });
  });

  test('+12.5 % rounds up; gwei in and out', () => {
    expect(bump(8n)).toBe(9n);
    expect(bump(9n)).toBe(11n);
    expect(gweiToWei('1000')).toBe(gwei(1000));
    expect(gweiToWei('0.000000001')).toBe(1n);
    expect(formatGwei(gwei(6912.3456))).toBe('6,912.346');
    expect(formatGwei(gwei(1000))).toBe('1,000');
  });
});
