import fc from 'fast-check';
import { getAddress, isAddress as viemIsAddress } from 'viem';
import { describe, expect, test } from 'vitest';
import { checksumAddress, isAddress } from './evm-address.js';

describe('EIP-55 addresses', () => {
  test('the checksum is the one of EIP-55 and viem, for any 20 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const hex = `0x${Buffer.from(bytes).toString('hex')}`;
        expect(checksumAddress(hex)).toBe(getAddress(hex));
      }),
    );
  });

  test("EIP-55's own examples", () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    ]) {
      expect(checksumAddress(a.toLowerCase())).toBe(a);
      expect(isAddress(a)).toBe(true);
    }
  });

  test('isAddress agrees with viem in strict mode, whatever the text', () => {
    const candidates = fc.oneof(
      fc.string(),
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
      fc
        .uint8Array({ minLength: 20, maxLength: 20 })
        .chain((b) =>
          fc
            .array(fc.boolean(), { minLength: 40, maxLength: 40 })
            .map(
              (up) =>
                `0x${[...Buffer.from(b).toString('hex')].map((c, i) => (up[i] ? c.toUpperCase() : c)).join('')}`,
            ),
        ),
    );
    fc.assert(
      fc.property(candidates, (s) => {
        expect(isAddress(s)).toBe(viemIsAddress(s, { strict: true }));
      }),
    );
  });
});
