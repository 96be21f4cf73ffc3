import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { afterEach, describe, expect, test } from 'vitest';
import { Paydesk, VERSION } from './index.js';

const KEY = `svc_secret_${'a1B2'.repeat(10)}`;

describe('new Paydesk(secretKey)', () => {
  test('accepts a secret key', () => {
    expect(new Paydesk(KEY)).toBeInstanceOf(Paydesk);
  });

  test.each([
    [undefined, /got undefined\. Is the environment variable holding it set\?/],
    ['', /got an empty string/],
    [`Bearer ${KEY}`, /without 'Bearer '/],
    [`${KEY}\n`, /spaces or a line break around it/],
    [`whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`, /webhook signing secret/],
    ['sk_live_0123456789abcdef0123456789abcdef', /not a Paydesk secret API key/],
    ['svc_secret_short', /svc_secret_ followed by at least 32 letters and digits/],
  ])('refuses %j, saying what is wrong', (key, message) => {
    expect(() => new Paydesk(key as string)).toThrow(message);
  });

  test('never repeats the key it refuses', () => {
    const almost = `svc_secret_${'Z'.repeat(31)}`;
    expect(() => new Paydesk(almost)).toThrow(TypeError);
    try {
      new Paydesk(almost);
    } catch (e) {
      expect(String((e as Error).message)).not.toContain('Z'.repeat(31));
    }
  });

  test('keeps the key out of console.log and JSON', () => {
    const paydesk = new Paydesk(KEY);
    expect(inspect(paydesk, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(paydesk)).not.toContain(KEY);
  });

  test.each([
    [{ baseUrl: 'not a url' }, /is not a URL/],
    [{ baseUrl: 'ftp://pay.example.com' }, /http:\/\/ or https:\/\//],
    [{ timeoutMs: 0 }, /timeoutMs.*at least 1/],
    [{ maxRetries: -1 }, /maxRetries.*at least 0/],
    [{ maxRetries: 1.5 }, /maxRetries.*integer/],
  ])('refuses the options %j', (options, message) => {
    expect(() => new Paydesk(KEY, options)).toThrow(message);
  });
});

describe('in a browser', () => {
  const g = globalThis as Record<string, unknown>;
  afterEach(() => {
    delete g.window;
    delete g.document;
  });

  test('refuses to start: the secret key would be readable by anyone', () => {
    g.window = {};
    g.document = {};
    expect(() => new Paydesk(KEY)).toThrow(
      /runs only on your server: in a browser anyone could read your secret API key/,
    );
  });

  test('a server runtime that defines only `window` is not taken for a browser', () => {
    g.window = {};
    expect(new Paydesk(KEY)).toBeInstanceOf(Paydesk);
  });
});

test('VERSION is the package version', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  expect(VERSION).toBe(pkg.version);
});
