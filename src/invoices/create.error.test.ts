import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
  await createInvoice(t.app, m, { amount: '1.00' });
});
afterAll(() => t.close());

interface Violation {
  in: string;
  field: string;
  rule: string;
}

async function total(): Promise<number> {
  const res = await t.app.inject({ url: '/v1/merchant/invoices?limit=1', headers: m.auth });
  return res.json().meta.pagination.total;
}

/** A 422 VALIDATION_ERROR listing exactly these violations, each with a message. */
function expectViolations(res: LightMyRequestResponse, expected: Violation[]) {
  expect(res.statusCode, res.body).toBe(422);
  const body = res.json();
  expect(body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  expect(body.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(body.message.length).toBeGreaterThan(0);
  const errors = body.error.details.errors as Array<Violation & { message: string }>;
  expect(errors.map(({ message: _, ...v }) => v)).toEqual(expect.arrayContaining(expected));
  expect(errors).toHaveLength(expected.length);
  for (const e of errors) expect(e.message.length, JSON.stringify(e)).toBeGreaterThan(0);
}

/** Sends a body that must be refused with these violations, and checks nothing was written. */
async function refused(body: unknown, expected: Violation[]) {
  const before = await total();
  const res = await createInvoice(t.app, m, body as object);
  expectViolations(res, expected);
  expect(await total()).toBe(before);
  return res;
}

const body = (field: string, rule: string): Violation => ({ in: 'body', field, rule });

describe('POST /v1/merchant/invoices refuses an invalid amount', () => {
  test.each([
    ['a JSON number', 10, 'type'],
    ['an exponent', '1e3', 'format'],
    ['a plus sign', '+10', 'format'],
    ['a minus sign', '-10', 'positive'],
    ['a blank string', '', 'format'],
    ['spaces', ' 10', 'format'],
    ['a leading zero', '01', 'format'],
    ['a bare trailing point', '1.', 'format'],
    ['a bare leading point', '.5', 'format'],
    ['three decimals', '1.234', 'decimal_places'],
    ['16 integer digits', '1234567890123456', 'max_digits'],
    ['zero', '0', 'positive'],
    ['zero with decimals', '0.00', 'positive'],
    ['null', null, 'type'],
  ])('%s', async (_name, amount, rule) => {
    await refused({ amount }, [body('amount', rule)]);
  });

  test('a missing amount', async () => {
    await refused({ order_id: 'x' }, [body('amount', 'required')]);
  });

  test('the message of a JSON number says to send a string', async () => {
    const res = await refused({ amount: 10.5 }, [body('amount', 'type')]);
    expect(res.json().error.details.errors[0].message).toMatch(/string/);
  });
});

describe('POST /v1/merchant/invoices refuses an invalid order_id', () => {
  test('empty', async () => {
    await refused({ amount: '1', order_id: '' }, [body('order_id', 'min_length')]);
  });

  test('121 code points', async () => {
    await refused({ amount: '1', order_id: 'a'.repeat(121) }, [body('order_id', 'max_length')]);
    await refused({ amount: '1', order_id: '😀'.repeat(121) }, [body('order_id', 'max_length')]);
  });

  test('120 code points pass even when they are 240 UTF-16 units', async () => {
    const orderId = '😀'.repeat(120);
    expect(orderId.length).toBe(240);
    const res = await createInvoice(t.app, m, { amount: '1', order_id: orderId });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.order_id).toBe(orderId);
  });

  test.each([
    ['NUL', 'a\u0000b'],
    ['a newline', 'a\nb'],
    ['a tab', 'a\tb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
  ])('with %s', async (_name, orderId) => {
    await refused({ amount: '1', order_id: orderId }, [body('order_id', 'control_characters')]);
  });

  test('not a string', async () => {
    await refused({ amount: '1', order_id: 42 }, [body('order_id', 'type')]);
  });
});

describe('POST /v1/merchant/invoices refuses invalid metadata', () => {
  test('21 keys', async () => {
    const metadata = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    await refused({ amount: '1', metadata }, [body('metadata', 'max_properties')]);
  });

  test('a 41-character key', async () => {
    const key = 'k'.repeat(41);
    await refused({ amount: '1', metadata: { [key]: 'v' } }, [body(`metadata.${key}`, 'max_length')]);
  });

  test('an empty key', async () => {
    // The key is empty, so the field can only name the object it sits in.
    await refused({ amount: '1', metadata: { '': 'v' } }, [
      { in: 'body', field: expect.stringMatching(/^metadata/), rule: 'min_length' },
    ]);
  });

  test('a 501-character value', async () => {
    await refused({ amount: '1', metadata: { note: 'x'.repeat(501) } }, [
      body('metadata.note', 'max_length'),
    ]);
  });

  test.each([
    ['a number', 1],
    ['a boolean', true],
    ['an object', { a: 'b' }],
    ['null', null],
  ])('a value that is %s', async (_name, value) => {
    await refused({ amount: '1', metadata: { a: value } }, [body('metadata.a', 'type')]);
  });

  test('an array', async () => {
    await refused({ amount: '1', metadata: ['a'] }, [body('metadata', 'type')]);
  });

  test('the limits themselves pass: 20 keys of 40 characters, values of 500', async () => {
    const metadata = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`${i}`.padStart(40, 'k'), 'v'.repeat(500)]),
    );
    const res = await createInvoice(t.app, m, { amount: '1', metadata });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.metadata).toEqual(metadata);
  });
});

describe('POST /v1/merchant/invoices refuses a malformed request', () => {
  test('an unknown field', async () => {
    await refused({ amount: '1', currency: 'BTC' }, [body('currency', 'unknown_field')]);
  });

  test.each([
    ['an array', ['amount', '1']],
    ['a string', 'amount=1'],
    ['a number', 1],
    ['null', null],
  ])('a body that is %s', async (_name, payload) => {
    const before = await total();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/merchant/invoices',
      headers: { ...m.auth, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expectViolations(res, [body('body', 'type')]);
    expect(await total()).toBe(before);
  });

  test.each([
    ['malformed JSON', 'application/json', '{"amount": "1",', 'invalid_json'],
    ['an empty JSON body', 'application/json', '', 'invalid_json'],
    ['a form body', 'application/x-www-form-urlencoded', 'amount=1', 'content_type'],
    ['a text body', 'text/plain', '{"amount":"1"}', 'content_type'],
  ])('%s', async (_name, contentType, payload, rule) => {
    const before = await total();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/merchant/invoices',
      headers: { ...m.auth, 'content-type': contentType },
      payload,
    });
    expectViolations(res, [body('body', rule)]);
    expect(await total()).toBe(before);
  });

  test.each([
    ['a UTF-16 charset', 'application/json; charset=utf-16', '{"amount":"1"}', 'content_type'],
    ['a Latin-1 charset', 'application/json;charset="iso-8859-1"', '{"amount":"1"}', 'content_type'],
    [
      'bytes that are not UTF-8',
      'application/json',
      Buffer.from('{"amount":"1","order_id":"\xff"}', 'latin1'),
      'invalid_utf8',
    ],
  ])('%s', async (_name, contentType, payload, rule) => {
    const before = await total();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/merchant/invoices',
      headers: { ...m.auth, 'content-type': contentType },
      payload,
    });
    expectViolations(res, [body('body', rule)]);
    expect(await total()).toBe(before);
  });

  test('an explicit UTF-8 charset is fine', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/merchant/invoices',
      headers: { ...m.auth, 'content-type': 'application/json; charset=UTF-8' },
      payload: '{"amount":"1"}',
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  test('"__proto__" as a metadata key says what is wrong with it', async () => {
    const res = await refused(JSON.parse('{"amount":"1","metadata":{"__proto__":"x"}}'), [
      body('metadata.__proto__', 'forbidden_key'),
    ]);
    expect(res.json().message).toMatch(/"__proto__" is never allowed as a key/);
  });

  test.each([
    [
      'a NUL in a metadata value',
      { amount: '1', metadata: { k: 'a\0b' } },
      'metadata.k',
      'control_characters',
    ],
    [
      'a lone surrogate in a metadata value',
      { amount: '1', metadata: { k: '\ud800' } },
      'metadata.k',
      'invalid_unicode',
    ],
    ['a lone surrogate in order_id', { amount: '1', order_id: 'x\udc00' }, 'order_id', 'invalid_unicode'],
  ])('%s', async (_name, payload, field, rule) => {
    await refused(payload, [body(field, rule)]);
  });

  test('a body over 64 KiB', async () => {
    const before = await total();
    const payload = JSON.stringify({ amount: '1', order_id: 'x', pad: 'x'.repeat(64 * 1024) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/merchant/invoices',
      headers: { ...m.auth, 'content-type': 'application/json' },
      payload,
    });
    expectViolations(res, [body('body', 'too_large')]);
    expect(await total()).toBe(before);
  });

  test('no body at all', async () => {
    const before = await total();
    const res = await t.app.inject({ method: 'POST', url: '/v1/merchant/invoices', headers: m.auth });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.details.errors[0]).toMatchObject({ in: 'body' });
    expect(await total()).toBe(before);
  });
});

describe('POST /v1/merchant/invoices lists every violation at once', () => {
  test('amount, order_id, metadata and an unknown field together', async () => {
    const metadata = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    await refused({ amount: 10, order_id: 'a'.repeat(121), metadata, extra: true }, [
      body('amount', 'type'),
      body('order_id', 'max_length'),
      body('metadata', 'max_properties'),
      body('extra', 'unknown_field'),
    ]);
  });

  test('two bad metadata entries and a bad amount', async () => {
    await refused({ amount: '1.234', metadata: { a: 1, b: 'x'.repeat(501) } }, [
      body('amount', 'decimal_places'),
      body('metadata.a', 'type'),
      body('metadata.b', 'max_length'),
    ]);
  });
});
