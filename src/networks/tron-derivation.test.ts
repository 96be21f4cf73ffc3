import fc from 'fast-check';
import { TronWeb, utils } from 'tronweb';
import { describe, expect, test } from 'vitest';
import {
  accountKey,
  accountXpubFromMnemonic,
  MERCHANT_MNEMONIC,
  privateKeyAt,
  seedFromMnemonic,
  TRON_COIN,
  TRON_TEST_XPUB,
} from '../../test/chain/wallet.js';
import { FAMILY } from './family.js';
import { deriveAddress, parseXpub } from './xpub.js';

// TRON deposit addresses (contract §14) against tronweb, TRON's own SDK: its mnemonic path goes
// through ethers' HD wallet and its address helpers through its own base58check, so nothing here
// shares code with Paydesk's derivation (one public BIP32 step, keccak, @scure/base).
const tron = FAMILY.tron;
const tronwebAt = (mnemonic: string, index: number) =>
  TronWeb.fromMnemonic(mnemonic, `m/44'/195'/0'/0/${index}`).address;

describe("TRON deposit addresses, m/44'/195'/0'/0/i", () => {
  test('are the addresses tronweb derives for the all-"abandon" wallet', () => {
    expect(accountXpubFromMnemonic(MERCHANT_MNEMONIC, 0, TRON_COIN)).toBe(TRON_TEST_XPUB);
    const xpub = parseXpub(TRON_TEST_XPUB);
    expect(deriveAddress(xpub, 0, tron)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    for (const i of [1, 2, 3, 19, 1000]) {
      expect(deriveAddress(xpub, i, tron)).toBe(tronwebAt(MERCHANT_MNEMONIC, i));
    }
  });

  test('match tronweb for random recovery phrases and indexes', () => {
    const { Mnemonic } = utils.ethersUtils;
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (entropy, index) => {
          const phrase = Mnemonic.fromEntropy(entropy).phrase;
          const xpub = parseXpub(accountXpubFromMnemonic(phrase, 0, TRON_COIN));
          expect(deriveAddress(xpub, index, tron)).toBe(tronwebAt(phrase, index));
        },
      ),
      { numRuns: 25 },
    );
  });

  test('match the private key at the same path, through tronweb, for random seeds, accounts and indexes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 5 }),
        (seed, index, account) => {
          const xpub = parseXpub(accountKey(seed, account, TRON_COIN).publicExtendedKey);
          const key = privateKeyAt(seed, index, account, TRON_COIN).slice(2);
          expect(deriveAddress(xpub, index, tron)).toBe(TronWeb.address.fromPrivateKey(key));
        },
      ),
      { numRuns: 60 },
    );
  });

  test('name the same key as the EVM address of the same index: only the writing differs', () => {
    const xpub = parseXpub(TRON_TEST_XPUB);
    const evm = deriveAddress(xpub, 7, FAMILY.evm);
    expect(TronWeb.address.fromHex(`41${evm.slice(2)}`)).toBe(deriveAddress(xpub, 7, tron));
  });

  test('a key of the wrong depth is refused with the TRON path in the message', () => {
    const external = accountKey(seedFromMnemonic(MERCHANT_MNEMONIC), 0, TRON_COIN).deriveChild(0);
    expect(() => parseXpub(external.publicExtendedKey, TRON_COIN)).toThrow(/m\/44'\/195'\/0'.*depth 4/);
  });
});
