import fc from 'fast-check';
import { type Address, getAddress } from 'viem';
import { describe, expect, test } from 'vitest';
import { tokenTransferUri } from './eip681.js';

const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const PAYEE = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';

/** EIP-681's grammar for the one form we write, restated here: the test does not trust the writer. */
function parse(uri: string) {
  const m =
    /^ethereum:(0x[0-9a-fA-F]{40})@([1-9][0-9]*)\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(0|[1-9][0-9]*)$/.exec(
      uri,
    );
  if (!m) throw new Error(`not an EIP-681 token transfer: ${uri}`);
  return { token: m[1], chainId: Number(m[2]), to: m[3], units: BigInt(m[4] as string) };
}

const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => getAddress(Buffer.from(b).toString('hex').padStart(40, '0').replace(/^/, '0x')) as Address);

describe('tokenTransferUri', () => {
  test('writes the ERC-20 transfer form with the amount in plain digits', () => {
    expect(tokenTransferUri({ token: USDT, chainId: 1, to: PAYEE, units: 10_500_000n })).toBe(
      `ethereum:${USDT}@1/transfer?address=${PAYEE}&uint256=10500000`,
    );
    expect(tokenTransferUri({ token: USDT, chainId: 56, to: PAYEE, units: 10n ** 30n })).toMatch(
      /&uint256=1000000000000000000000000000000$/,
    );
  });

  test('parses back to what it was given, for any token, chain, payee and amount', () => {
    fc.assert(
      fc.property(
        address,
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        address,
        fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
        (token, chainId, to, units) => {
          expect(parse(tokenTransferUri({ token, chainId, to, units }))).toEqual({
            token,
            chainId,
            to,
            units,
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('refuses what would make a wrong payment request', () => {
    const ok = { token: USDT, chainId: 1, to: PAYEE, units: 1n } as const;
    expect(() => tokenTransferUri({ ...ok, to: PAYEE.toLowerCase().replace('a', 'A') as Address })).toThrow(
      RangeError,
    );
    expect(() => tokenTransferUri({ ...ok, token: '0x12' })).toThrow(RangeError);
    expect(() => tokenTransferUri({ ...ok, chainId: 0 })).toThrow(RangeError);
    expect(() => tokenTransferUri({ ...ok, chainId: 1.5 })).toThrow(RangeError);
    expect(() => tokenTransferUri({ ...ok, units: -1n })).toThrow(RangeError);
  });
});
