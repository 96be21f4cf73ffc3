import { expect, test } from 'vitest';
import { secretKeyFrom } from './key.js';
import { SealError, seal, unseal } from './seal.js';

const key = secretKeyFrom('a-long-random-setting-0123456789abcdef');
const other = secretKeyFrom('another-long-random-setting-0123456789');

test('a sealed secret opens with its key and context only, and says why not', () => {
  const sealed = seal(key, 'JBSWY3DPEHPK3PXP', 'row:1');
  expect(sealed).toMatch(/^sealed:v1:[A-Za-z0-9_-]{8}:/);
  expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
  expect(seal(key, 'JBSWY3DPEHPK3PXP', 'row:1')).not.toBe(sealed); // a fresh nonce each time
  expect(unseal(key, sealed, 'row:1')).toBe('JBSWY3DPEHPK3PXP');
  expect(() => unseal(key, sealed, 'row:2')).toThrow(SealError);
  expect(() => unseal(other, sealed, 'row:1')).toThrow(
    /sealed with another key .* same PAYDESK_ENCRYPTION_KEY/,
  );
  const at = sealed.lastIndexOf(':') + 1;
  const raw = Buffer.from(sealed.slice(at), 'base64url');
  raw[raw.length - 1] = (raw[raw.length - 1] as number) ^ 1; // one bit of the ciphertext
  const tampered = `${sealed.slice(0, at)}${raw.toString('base64url')}`;
  expect(() => unseal(key, tampered, 'row:1')).toThrow(SealError);
});
