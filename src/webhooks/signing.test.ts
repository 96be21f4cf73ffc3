import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test } from 'vitest';
import { newSigningSecret, signatureHeaders } from './signing.js';

describe('Standard Webhooks signatures', () => {
  test('the standardwebhooks library verifies any body we sign, byte for byte', () => {
    const secret = newSigningSecret();
    const verifier = new Webhook(secret);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.stringMatching(/^evt_[A-Za-z0-9]{24}$/), (text, id) => {
        const body = JSON.stringify({ id, text });
        const headers = signatureHeaders(secret, id, new Date(), body);
        expect(verifier.verify(body, headers)).toEqual({ id, text });
      }),
      { numRuns: 200 },
    );
  });

  test('a changed body, id or timestamp, or another secret, does not verify', () => {
    const secret = newSigningSecret();
    const body = '{"id":"evt_1","amount":"10.00"}';
    const headers = signatureHeaders(secret, 'evt_1', new Date(), body);
    const verifier = new Webhook(secret);
    expect(() => verifier.verify(body.replace('10.00', '99.00'), headers)).toThrow();
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow();
    const later = String(Number(headers['webhook-timestamp']) + 1);
    expect(() => verifier.verify(body, { ...headers, 'webhook-timestamp': later })).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });

  test('signed with two secrets (a rolled one and its successor), either secret verifies', () => {
    const [old, next] = [newSigningSecret(), newSigningSecret()];
    const body = '{"id":"evt_1"}';
    const headers = signatureHeaders([next, old], 'evt_1', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(old).verify(body, headers)).toEqual({ id: 'evt_1' });
    expect(new Webhook(next).verify(body, headers)).toEqual({ id: 'evt_1' });
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });

  test('secrets are whsec_ plus base64 of 32 random bytes, and differ each time', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });
});
