import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checksumAddress } from '../networks/evm-address.js';
import { tronAddress } from '../networks/tron-address.js';
import { checkRefundAddress } from './address.js';

// EIP-55's own test vectors.
const VECTORS = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('an EVM refund address is checked as typed', () => {
  test('the EIP-55 form passes; the sandbox takes the same form', () => {
    for (const a of VECTORS) {
      expect(checkRefundAddress('evm', a)).toEqual({ ok: true, address: a });
      expect(checkRefundAddress('sandbox', ` ${a}\n`)).toEqual({ ok: true, address: a });
    }
  });

  test('without a checksum (one case) it is refused: a typo would go unnoticed', () => {
    for (const a of VECTORS) {
      expect(checkRefundAddress('evm', a.toLowerCase())).toMatchObject({
        ok: false,
        rule: 'checksum_missing',
        message: expect.stringMatching(new RegExp(`EIP-55 checksum .* its EIP-55 form is ${a}$`)),
      });
      expect(checkRefundAddress('evm', `0x${a.slice(2).toUpperCase()}`)).toMatchObject({
        ok: false,
        rule: 'checksum_missing',
      });
    }
  });

  test('any one letter changed in case fails the checksum', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(39), (bytes, i) => {
        const good = checksumAddress(`0x${Buffer.from(bytes).toString('hex')}`);
        const c = good[2 + i] as string;
        fc.pre(/[a-fA-F]/.test(c));
        const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
        const bad = `${good.slice(0, 2 + i)}${flipped}${good.slice(3 + i)}`;
        const result = checkRefundAddress('evm', bad);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  test('other shapes, a TRON address and the zero address are refused', () => {
    for (const a of ['', '0x123', 'hello', `${VECTORS[0]}00`, tronAddress(new Uint8Array(20).fill(7))]) {
      expect(checkRefundAddress('evm', a)).toMatchObject({ ok: false, rule: 'evm_address' });
    }
    expect(checkRefundAddress('evm', `0x${'0'.repeat(40)}`).ok).toBe(false);
  });
});

describe('a TRON refund address', () => {
  test('base58check T… passes; a changed character or an EVM address fails', () => {
    const good = tronAddress(new Uint8Array(20).fill(9));
    expect(checkRefundAddress('tron', good)).toEqual({ ok: true, address: good });
    const last = good.at(-1) === 'a' ? 'b' : 'a';
    expect(checkRefundAddress('tron', `${good.slice(0, -1)}${last}`)).toMatchObject({
      ok: false,
      rule: 'tron_address',
    });
    expect(checkRefundAddress('tron', VECTORS[0] as string)).toMatchObject({
      ok: false,
      rule: 'tron_address',
    });
  });
});
