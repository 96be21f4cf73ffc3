import fc from 'fast-check';
import { encodeAbiParameters, keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { invoiceSalt } from './salt.js';

describe('invoiceSalt', () => {
  it('is a 32-byte hash, the same for the same invoice', () => {
    expect(invoiceSalt('prj_a', 'inv_b')).toMatch(/^0x[0-9a-f]{64}$/);
    expect(invoiceSalt('prj_a', 'inv_b')).toBe(invoiceSalt('prj_a', 'inv_b'));
  });

  it('never gives two different (project, invoice) pairs one salt, however the ids split', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (p1, i1, p2, i2) => {
        fc.pre(p1 !== p2 || i1 !== i2);
        expect(invoiceSalt(p1, i1)).not.toBe(invoiceSalt(p2, i2));
      }),
    );
    expect(invoiceSalt('ab', 'c')).not.toBe(invoiceSalt('a', 'bc'));
  });
});

describe('invoiceSalt, encoded by hand', () => {
  it('is keccak256 of viem’s abi.encode(string, string), for any ids', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (projectId, invoiceId) => {
        const viem = keccak256(
          encodeAbiParameters([{ type: 'string' }, { type: 'string' }], [projectId, invoiceId]),
        );
        expect(invoiceSalt(projectId, invoiceId)).toBe(viem);
      }),
    );
  });
});
