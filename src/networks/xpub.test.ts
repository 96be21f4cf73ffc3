import { HDKey } from '@scure/bip32';
import fc from 'fast-check';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, test } from 'vitest';
import {
  accountKey,
  accountXpubFromMnemonic,
  HARDHAT_MNEMONIC,
  MERCHANT_MNEMONIC,
  privateKeyAt,
  seedFromMnemonic,
  TEST_XPUB,
} from '../../test/chain/wallet.js';
import { FAMILY } from './family.js';
import { deriveAddress, parseXpub, XpubError } from './xpub.js';

const evm = FAMILY.evm;

/** The same account key under other BIP32 version bytes (tpub, ypub, zpub…), as other tools write it. */
function reencode(key: HDKey, version: number, priv = false): string {
  const versions = priv ? { private: version, public: 0 } : { public: version, private: 0 };
  const copy = new HDKey({
    versions,
    depth: key.depth,
    index: key.index,
    parentFingerprint: key.parentFingerprint,
    chainCode: key.chainCode ?? undefined,
    ...(priv ? { privateKey: key.privateKey ?? undefined } : { publicKey: key.publicKey ?? undefined }),
  });
  return priv ? copy.privateExtendedKey : copy.publicExtendedKey;
}

const merchantKey = accountKey(seedFromMnemonic(MERCHANT_MNEMONIC));

describe('deriveAddress', () => {
  test('gives the addresses Hardhat, MetaMask and every BIP44 wallet show for the mnemonic', () => {
    const xpub = parseXpub(accountXpubFromMnemonic(HARDHAT_MNEMONIC));
    expect(deriveAddress(xpub, 0, evm)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(deriveAddress(xpub, 1, evm)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(deriveAddress(xpub, 2, evm)).toBe('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
    for (const i of [3, 7, 19]) {
      expect(deriveAddress(xpub, i, evm)).toBe(
        mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: i }).address,
      );
    }
  });

  test('matches the well-known address of the all-"abandon" mnemonic, and TEST_XPUB is its account key', () => {
    expect(accountXpubFromMnemonic(MERCHANT_MNEMONIC)).toBe(TEST_XPUB);
    expect(deriveAddress(parseXpub(TEST_XPUB), 0, evm)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });

  test('matches the address of the private key at m/44h/60h/0h/0/i, up to the last non-hardened index', () => {
    const seed = seedFromMnemonic(MERCHANT_MNEMONIC);
    const xpub = parseXpub(TEST_XPUB);
    for (const i of [0, 1, 2, 10, 999, 65_536, 2 ** 31 - 1]) {
      expect(deriveAddress(xpub, i, evm)).toBe(privateKeyToAccount(privateKeyAt(seed, i)).address);
    }
  });

  test('matches the private-key derivation for random seeds and indexes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 5 }),
        (seed, index, account) => {
          const xpub = parseXpub(accountKey(seed, account).publicExtendedKey);
          expect(deriveAddress(xpub, index, evm)).toBe(
            privateKeyToAccount(privateKeyAt(seed, index, account)).address,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  test('refuses indexes outside the non-hardened range', () => {
    const xpub = parseXpub(TEST_XPUB);
    for (const i of [-1, 2 ** 31, 1.5, Number.NaN])
      expect(() => deriveAddress(xpub, i, evm)).toThrow(RangeError);
  });
});

describe('parseXpub', () => {
  test('reads a tpub as the same account: the addresses do not depend on the version bytes', () => {
    const tpub = reencode(merchantKey, 0x043587cf);
    expect(tpub.startsWith('tpub')).toBe(true);
    expect(deriveAddress(parseXpub(tpub), 5, evm)).toBe(deriveAddress(parseXpub(TEST_XPUB), 5, evm));
  });

  test('ignores whitespace around a pasted key', () => {
    expect(deriveAddress(parseXpub(`  ${TEST_XPUB}\n`), 0, evm)).toBe(
      '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
    );
  });

  test('refuses private keys and recovery phrases with a warning, never quoting them', () => {
    const secrets = [
      merchantKey.privateExtendedKey,
      reencode(merchantKey, 0x04358394, true),
      MERCHANT_MNEMONIC,
      privateKeyAt(seedFromMnemonic(MERCHANT_MNEMONIC), 0),
      privateKeyAt(seedFromMnemonic(MERCHANT_MNEMONIC), 0).slice(2),
    ];
    for (const secret of secrets) {
      const error = catchError(() => parseXpub(secret));
      expect(error.message).toMatch(/Never give Paydesk a private key/);
      expect(error.message).not.toContain(secret.slice(4, 20));
    }
  });

  test('refuses Bitcoin SegWit encodings (ypub, zpub) by name', () => {
    for (const version of [0x049d7cb2, 0x04b24746]) {
      expect(catchError(() => parseXpub(reencode(merchantKey, version))).message).toMatch(/SegWit/);
    }
  });

  test('refuses a damaged key, a key of another depth and plain text, each with its own reason', () => {
    const damaged = TEST_XPUB.slice(0, 40) + (TEST_XPUB[40] === 'a' ? 'b' : 'a') + TEST_XPUB.slice(41);
    expect(catchError(() => parseXpub(damaged)).message).toMatch(/damaged/);
    const master = HDKey.fromMasterSeed(seedFromMnemonic(MERCHANT_MNEMONIC)).publicExtendedKey;
    expect(catchError(() => parseXpub(master)).message).toMatch(/depth 3.*depth 0/);
    const external = accountKey(seedFromMnemonic(MERCHANT_MNEMONIC)).deriveChild(0).publicExtendedKey;
    expect(catchError(() => parseXpub(external)).message).toMatch(/depth 4/);
    expect(catchError(() => parseXpub('0x9858EfFD232B4033E47d90003D41EC34EcaEda94')).message).toMatch(
      /Not an extended public key/,
    );
  });

  test('throws nothing but XpubError, whatever it is given', () => {
    const base58 = fc.constantFrom(...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz');
    const keyLike = fc
      .tuple(fc.constantFrom('xpub', 'tpub', 'xprv', 'zpub', ''), fc.array(base58, { maxLength: 120 }))
      .map(([prefix, chars]) => prefix + chars.join(''));
    const mutated = fc
      .tuple(fc.nat(TEST_XPUB.length - 1), base58)
      .map(([i, c]) => TEST_XPUB.slice(0, i) + c + TEST_XPUB.slice(i + 1));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), keyLike, mutated), (text) => {
        try {
          parseXpub(text);
        } catch (error) {
          expect(error).toBeInstanceOf(XpubError);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(XpubError);
    return error as Error;
  }
  throw new Error('expected an error');
}
