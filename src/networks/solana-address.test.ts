import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  associatedTokenAccount,
  findProgramAddress,
  isOnCurve,
  isSolanaAddress,
  walletAddressProblem,
} from './solana-address.js';
import { solanaReference, transferRequestUrl, trimDecimal } from './solana-pay.js';

const bytes32 = fc.uint8Array({ minLength: 32, maxLength: 32 });
const wallet = bytes32.map((secret) => base58.encode(ed25519.getPublicKey(secret)));
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('a Solana wallet address (one rule for the admin API and the dashboard)', () => {
  test('every ed25519 public key is accepted', () => {
    fc.assert(fc.property(wallet, (address) => walletAddressProblem(address) === undefined));
  });

  test('a program-derived address (an ATA, a vault) is refused as off the curve', () => {
    fc.assert(
      fc.property(wallet, (owner) => {
        const ata = associatedTokenAccount(owner, USDC);
        expect(isSolanaAddress(ata)).toBe(true);
        expect(walletAddressProblem(ata)?.rule).toBe('off_curve');
      }),
      { numRuns: 20 },
    );
  });

  test('text that is not base58 of 32 bytes is refused as format, whatever it is', () => {
    const notBase58 = fc.string().filter((s) => !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s));
    fc.assert(fc.property(notBase58, (s) => walletAddressProblem(s)?.rule === 'format'));
    const otherLength = fc
      .uint8Array({ minLength: 20, maxLength: 40 })
      .filter((b) => b.length !== 32)
      .map((b) => base58.encode(b));
    fc.assert(fc.property(otherLength, (s) => walletAddressProblem(s)?.rule === 'format'));
    for (const s of [
      '0x52908400098527886E0F7030069857D2E4169EE7',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      '',
    ]) {
      expect(walletAddressProblem(s)?.rule).toBe('format');
    }
  });

  test('the on-curve check agrees with decompression, for any 32 bytes', () => {
    fc.assert(
      fc.property(bytes32, (b) => {
        const on = isOnCurve(b);
        expect(walletAddressProblem(base58.encode(b))?.rule).toBe(on ? undefined : 'off_curve');
      }),
    );
  });

  test('a program address is off the curve and the same for the same seeds', () => {
    const program = base58.decode('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
    const a = findProgramAddress([new TextEncoder().encode('x')], program);
    expect(isOnCurve(a)).toBe(false);
    expect(findProgramAddress([new TextEncoder().encode('x')], program)).toEqual(a);
  });
});

describe('a Solana Pay transfer request', () => {
  test('names recipient, decimal amount, mint, reference, and encodes label and message', () => {
    const url = transferRequestUrl({
      recipient: 'MERCHANT',
      amount: trimDecimal('10.500000'),
      splToken: USDC,
      reference: 'REF',
      label: 'Acme & Co',
      message: 'Order #42',
    });
    expect(url).toBe(
      `solana:MERCHANT?amount=10.5&spl-token=${USDC}&reference=REF&label=Acme%20%26%20Co&message=Order%20%2342`,
    );
    expect(trimDecimal('10.000000')).toBe('10');
    expect(trimDecimal('0.000001')).toBe('0.000001');
  });

  test('each invoice has its own 32-byte reference', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(base58.decode(solanaReference(a))).toHaveLength(32);
        if (a !== b) expect(solanaReference(a)).not.toBe(solanaReference(b));
      }),
    );
  });
});
