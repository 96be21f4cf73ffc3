import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import fc from 'fast-check';
import { TronWeb } from 'tronweb';
import { describe, expect, test } from 'vitest';
import { isTronAddress, TronAddressError, tronAccountId, tronAddress } from './tron-address.js';

const accountId = fc.uint8Array({ minLength: 20, maxLength: 20 });
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

describe('TRON addresses', () => {
  test('the USDT contract, as Tether and TRON publish it in both forms', () => {
    const id = tronAccountId('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(hex(id)).toBe('a614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(tronAddress(id)).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });

  test('encode as tronweb does, for any 20 bytes, and decode back to them', () => {
    fc.assert(
      fc.property(accountId, (id) => {
        const address = tronAddress(id);
        expect(address).toBe(TronWeb.address.fromHex(`41${hex(id)}`));
        expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
        expect(tronAccountId(address)).toEqual(id);
      }),
      { numRuns: 500 },
    );
  });

  test('one changed character fails the checksum', () => {
    fc.assert(
      fc.property(accountId, fc.integer({ min: 1, max: 33 }), fc.constantFrom(...BASE58), (id, at, c) => {
        const address = tronAddress(id);
        fc.pre(address[at] !== c);
        const damaged = address.slice(0, at) + c + address.slice(at + 1);
        expect(isTronAddress(damaged)).toBe(false);
        expect(TronWeb.isAddress(damaged)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  test('another version byte is refused, even with a valid checksum', () => {
    const base58check = createBase58check(sha256);
    fc.assert(
      fc.property(accountId, fc.integer({ min: 0, max: 255 }), (id, version) => {
        fc.pre(version !== 0x41);
        const other = base58check.encode(Uint8Array.of(version, ...id));
        expect(() => tronAccountId(other)).toThrow(TronAddressError);
      }),
    );
    // A Bitcoin address: base58check too, version 0x00.
    expect(isTronAddress('1BoatSLRHtKNngkdXEeobR76b53LETtpyT')).toBe(false);
  });

  test('anything else is refused with a TronAddressError, never another error', () => {
    const tLike = fc
      .array(fc.constantFrom(...BASE58), { minLength: 30, maxLength: 36 })
      .map((c) => `T${c.join('')}`);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), tLike), (text) => {
        try {
          const id = tronAccountId(text);
          expect(tronAddress(id)).toBe(text);
        } catch (error) {
          expect(error).toBeInstanceOf(TronAddressError);
        }
        expect(isTronAddress(text)).toBe(TronWeb.isAddress(text));
      }),
      { numRuns: 2000 },
    );
  });

  test('non-base58 characters (0, O, I, l) and the hex forms are not T-addresses', () => {
    for (const text of [
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6O',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6l',
      '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
      '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
      ' TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    ]) {
      expect(isTronAddress(text), text).toBe(false);
    }
    expect(() => tronAddress(new Uint8Array(21))).toThrow(TronAddressError);
  });
});
