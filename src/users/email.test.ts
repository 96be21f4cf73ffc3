import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_EMAIL_LENGTH, parseEmail } from './email.js';

describe('parseEmail', () => {
  test('stores one form: trimmed and lower-cased', () => {
    expect(parseEmail('  Owner@Shop.Example ')).toEqual({ ok: true, email: 'owner@shop.example' });
  });

  test('refuses what is not a plain ASCII address, with a rule per reason', () => {
    expect(parseEmail('')).toMatchObject({ ok: false, rule: 'required' });
    expect(parseEmail(`${'a'.repeat(250)}@x.example`)).toMatchObject({ ok: false, rule: 'max_length' });
    expect(parseEmail('jоhn@example.com')).toMatchObject({ ok: false, rule: 'ascii' });
    expect(parseEmail('a b@example.com')).toMatchObject({ ok: false, rule: 'ascii' });
    for (const bad of ['no-at', '@example.com', 'a@', 'a@localhost', 'a@@b.example', 'a@b..example']) {
      expect(parseEmail(bad), bad).toMatchObject({ ok: false, rule: 'email' });
    }
  });

  test('any string: never throws, and an accepted address is short, ASCII and lower-case', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (input) => {
        const r = parseEmail(input);
        if (r.ok) {
          expect(r.email.length).toBeLessThanOrEqual(MAX_EMAIL_LENGTH);
          expect(r.email).toMatch(/^[\x21-\x7e]+$/);
          expect(r.email).toBe(r.email.toLowerCase());
          expect(parseEmail(r.email)).toEqual(r);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('every generated address of the common shape is accepted', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (address) => {
        const r = parseEmail(address);
        if (
          address.length <= MAX_EMAIL_LENGTH &&
          /^[\x21-\x7e]+$/.test(address) &&
          address.split('@')[0]!.length <= 64
        ) {
          if (!r.ok) expect.fail(`${address}: ${r.message}`);
        }
      }),
      { numRuns: 500 },
    );
  });
});
