import { expect, test } from 'vitest';
import { safeChecksum } from './safe-checksum.js';

// The example of Safe's own Transaction Builder tests (safe-global/safe-react-apps,
// apps/tx-builder/src/lib/checksum.test.js): the same file gives the same checksum, whatever the
// order of its keys, and a file whose transactions are reordered gives another.
const FILE = {
  version: '1.0',
  chainId: '4',
  createdAt: 1646321521061,
  meta: {
    name: 'test batch file',
    txBuilderVersion: '1.4.0',
    checksum: '',
    createdFromSafeAddress: '0xDF8a1Ce35c9a6ACE153B4e0767942f1E2291a1Aa',
    createdFromOwnerAddress: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6',
  },
  transactions: [
    {
      to: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6',
      value: '0',
      contractMethod: {
        inputs: [{ internalType: 'address', name: 'paramAddress', type: 'address' }],
        name: 'testAddress',
        payable: false,
      },
      contractInputsValues: { paramAddress: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6' },
    },
    {
      to: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6',
      value: '0',
      contractMethod: {
        inputs: [{ internalType: 'bool', name: 'paramBool', type: 'bool' }],
        name: 'testBool',
        payable: false,
      },
      contractInputsValues: { paramAddress: '', paramBool: 'false' },
    },
    {
      to: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6',
      value: '2000000000000000000',
      data: '0x42f4579000000000000000000000000049d4450977e2c95362c13d3a31a09311e0ea26a6',
    },
  ],
};
const EXPECTED = '0x832ecdb6653751ed00b79dede73864163e46e71815b72e11e506d6399bedffc9';

test("the checksum of Safe's own example is the one its Transaction Builder computes", () => {
  expect(safeChecksum(FILE)).toBe(EXPECTED);
});

test('the order of keys does not change it; the order of transactions does', () => {
  const reversed = Object.fromEntries(Object.entries(FILE).reverse());
  expect(safeChecksum(reversed)).toBe(EXPECTED);
  expect(safeChecksum({ ...FILE, transactions: [...FILE.transactions].reverse() })).not.toBe(EXPECTED);
});
