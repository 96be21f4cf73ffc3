import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { checkReturnUrl, MAX_RETURN_URL_LENGTH } from './return-url.js';

const ok = (value: string, allowPrivate = false) => checkReturnUrl(value, 'redirect_url', allowPrivate).ok;

describe('checkReturnUrl (the rule of contract §12)', () => {
  test('accepts any https URL a shop would use, up to 2,000 characters', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
        (url) => {
          fc.pre(!/[^\x21-\x7e]/.test(url) && !url.includes('\\') && !/^https:\/\/[^/]*@/.test(url));
          expect(ok(url)).toBe(url.length <= MAX_RETURN_URL_LENGTH);
        },
      ),
    );
  });

  test('refuses every other scheme, whatever the setting', () => {
    const scheme = fc.stringMatching(/^[a-z][a-z0-9+.-]{0,9}$/).filter((s) => s !== 'https' && s !== 'http');
    fc.assert(
      fc.property(scheme, fc.webPath(), fc.boolean(), (s, path, allowPrivate) => {
        expect(ok(`${s}://shop.example${path}`, allowPrivate)).toBe(false);
        expect(ok(`${s}:alert(1)`, allowPrivate)).toBe(false);
      }),
    );
  });

  test('refuses text the URL parser would have to repair, and anything with a control character', () => {
    for (const bad of [
      'https:shop.example/x',
      'https:/shop.example',
      'https:\\\\evil.example',
      'https://shop.example/a b',
      'https://shop.example/\tx',
      ' https://shop.example',
      'https://shop.example/é',
      '//shop.example/x',
      '/orders/1',
      'javascript:alert(1)',
      'https://user:pw@shop.example/',
      '',
    ]) {
      expect(ok(bad, true), JSON.stringify(bad)).toBe(false);
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x1f }), (code) => {
        expect(ok(`https://shop.example/${String.fromCharCode(code)}`, true)).toBe(false);
      }),
    );
  });

  test('http only to a loopback address, and only when private addresses are allowed', () => {
    const loopback = [
      'http://localhost:4000/done',
      'http://127.0.0.1/x',
      'http://[::1]:8080/',
      'http://shop.localhost/',
    ];
    for (const url of loopback) {
      expect(ok(url, true), url).toBe(true);
      expect(ok(url, false), url).toBe(false);
    }
    for (const url of [
      'http://shop.example/',
      'http://10.0.0.5/',
      'http://192.168.1.2/',
      'http://localhost.evil.example/',
    ]) {
      expect(ok(url, true), url).toBe(false);
    }
  });

  test('names the rule that was broken', () => {
    expect(checkReturnUrl('http://shop.example/', 'cancel_url', false)).toMatchObject({
      rule: 'https_required',
    });
    expect(checkReturnUrl(`https://a.example/${'x'.repeat(2000)}`, 'cancel_url', false)).toMatchObject({
      rule: 'max_length',
    });
    expect(checkReturnUrl('ftp://a.example/', 'cancel_url', false)).toMatchObject({ rule: 'format' });
  });
});

let t: TestApp;
let dev: TestApp;
let m: Merchant;
let d: Merchant;
beforeAll(async () => {
  [t, dev] = await Promise.all([
    startTestApp(),
    startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } }),
  ]);
  [m, d] = await Promise.all([createMerchant(t.app), createMerchant(dev.app)]);
});
afterAll(async () => {
  await Promise.all([t.close(), dev.close()]);
});

describe('POST /v1/merchant/invoices with redirect_url and cancel_url', () => {
  test('stores both, returns them on the invoice, and null when not given', async () => {
    const urls = {
      redirect_url: 'https://shop.example/orders/42?paid=1',
      cancel_url: 'https://shop.example/cart',
    };
    const res = await createInvoice(t.app, m, { amount: '10', ...urls });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject(urls);
    const got = await t.app.inject({ url: `/v1/merchant/invoices/${res.json().data.id}`, headers: m.auth });
    expect(got.json().data).toMatchObject(urls);
    const plain = (await createInvoice(t.app, m, { amount: '10', redirect_url: null })).json().data;
    expect(plain).toMatchObject({ redirect_url: null, cancel_url: null });
  });

  test('refuses a bad URL with VALIDATION_ERROR, every violated rule listed, nothing written', async () => {
    const res = await createInvoice(t.app, m, {
      amount: '0',
      redirect_url: 'http://shop.example/done',
      cancel_url: `https://shop.example/${'x'.repeat(2000)}`,
    });
    expect(res.statusCode).toBe(422);
    const errors = res
      .json()
      .error.details.errors.map((e: { field: string; rule: string }) => [e.field, e.rule]);
    expect(errors).toEqual(
      expect.arrayContaining([
        ['amount', expect.any(String)],
        ['redirect_url', 'https_required'],
        ['cancel_url', 'max_length'],
      ]),
    );
    for (const bad of ['javascript:alert(1)', 'https:evil.example', 42]) {
      const r = await createInvoice(t.app, m, { amount: '1', cancel_url: bad });
      expect(r.statusCode, String(bad)).toBe(422);
      expect(r.json().error.details.errors[0]).toMatchObject({ in: 'body', field: 'cancel_url' });
    }
  });

  test('http to localhost only with PAYDESK_WEBHOOK_ALLOW_PRIVATE=true', async () => {
    const body = { amount: '1', redirect_url: 'http://127.0.0.1:4000/orders/1' };
    expect((await createInvoice(t.app, m, body)).statusCode).toBe(422);
    const res = await createInvoice(dev.app, d, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.redirect_url).toBe(body.redirect_url);
    expect(
      (await createInvoice(dev.app, d, { amount: '1', redirect_url: 'http://shop.example/' })).statusCode,
    ).toBe(422);
  });

  test('an idempotent replay compares the URLs too', async () => {
    const key = { 'idempotency-key': `urls-${Date.now()}` };
    const first = { amount: '5', redirect_url: 'https://shop.example/a' };
    const a = await createInvoice(t.app, m, first, key);
    expect(a.statusCode).toBe(201);
    const again = await createInvoice(t.app, m, first, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(a.json().data.id);
    for (const changed of [
      { ...first, redirect_url: 'https://shop.example/b' },
      { ...first, cancel_url: 'https://shop.example/a' },
      { amount: '5' },
    ]) {
      const r = await createInvoice(t.app, m, changed, key);
      expect(r.statusCode, JSON.stringify(changed)).toBe(422);
      expect(r.json().error.details.errors[0].rule).toBe('reused_with_different_request');
    }
  });

  test('the URLs never reach the public status JSON or the webhook-free page data', async () => {
    const inv = (
      await createInvoice(t.app, m, {
        amount: '3',
        redirect_url: 'https://shop.example/secret-return',
        cancel_url: 'https://shop.example/secret-cancel',
      })
    ).json().data;
    const status = await t.app.inject({ url: `/pay/${inv.id}/status` });
    expect(status.statusCode).toBe(200);
    expect(status.body).not.toContain('shop.example');
    expect(Object.keys(status.json().data)).not.toEqual(expect.arrayContaining(['redirect_url']));
    expect(Object.keys(status.json().data)).not.toContain('cancel_url');
  });
});
