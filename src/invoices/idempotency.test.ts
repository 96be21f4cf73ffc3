import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { randomBase62 } from '../ids.js';
import { IDEMPOTENCY_RETENTION_MS, purgeIdempotencyKeys } from './idempotency.js';

const clock = manualClock(new Date('2026-03-01T12:00:00.000Z'));
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ clock });
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const newKey = () => `key-${randomBase62(12)}`;
const withKey = (key: string, body: object, merchant = m) =>
  createInvoice(t.app, merchant, body, { 'idempotency-key': key });

async function countInvoices(merchant: Merchant, orderId: string): Promise<number> {
  const res = await t.app.inject({
    url: `/v1/merchant/invoices?order_id=${encodeURIComponent(orderId)}`,
    headers: merchant.auth,
  });
  return res.json().meta.pagination.total;
}

async function storedKeys(key: string) {
  return t.database.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).execute();
}

function expectReusedKey(res: Awaited<ReturnType<typeof withKey>>) {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().error).toMatchObject({
    code: 'VALIDATION_ERROR',
    details: {
      errors: [
        {
          in: 'header',
          field: 'Idempotency-Key',
          rule: 'reused_with_different_request',
          message: expect.any(String),
        },
      ],
    },
  });
}

describe('Idempotency-Key on POST /v1/merchant/invoices', () => {
  test('the same key and request returns the first invoice, marked as a replay, and creates nothing', async () => {
    const key = newKey();
    const first = await withKey(key, { amount: '10.00', order_id: 'idem-1' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await withKey(key, { amount: '10.00', order_id: 'idem-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.json().data).toEqual(first.json().data);
    expect(again.json().trace_id).not.toBe(first.json().trace_id);
    expect(await countInvoices(m, 'idem-1')).toBe(1);
  });

  test('compares requests after normalisation: "10" is "10.00", metadata order and null do not matter', async () => {
    const key = newKey();
    const first = await withKey(key, { amount: '10', order_id: 'idem-2', metadata: { a: '1', b: '2' } });
    expect(first.statusCode).toBe(201);
    for (const same of [
      { amount: '10.00', order_id: 'idem-2', metadata: { b: '2', a: '1' } },
      { amount: '10.0', metadata: { a: '1', b: '2' }, order_id: 'idem-2' },
    ]) {
      const res = await withKey(key, same);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.json().data.id).toBe(first.json().data.id);
    }
    expect(await countInvoices(m, 'idem-2')).toBe(1);

    const bare = newKey();
    const created = await withKey(bare, { amount: '5' });
    const replay = await withKey(bare, { amount: '5.00', order_id: null, metadata: null });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(created.json().data.id);
  });

  test('the same key with a different request is refused and creates nothing', async () => {
    const key = newKey();
    const first = await withKey(key, { amount: '10.00', order_id: 'idem-3', metadata: { a: '1' } });
    expect(first.statusCode).toBe(201);
    for (const other of [
      { amount: '10.01', order_id: 'idem-3', metadata: { a: '1' } },
      { amount: '10.00', order_id: 'idem-3-other', metadata: { a: '1' } },
      { amount: '10.00', metadata: { a: '1' } },
      { amount: '10.00', order_id: 'idem-3', metadata: { a: '2' } },
      { amount: '10.00', order_id: 'idem-3', metadata: { a: '1', b: '1' } },
      { amount: '10.00', order_id: 'idem-3' },
      { amount: '10.00', order_id: 'idem-3', metadata: { a: '1' }, description: 'Beans' },
    ]) {
      expectReusedKey(await withKey(key, other));
    }
    expect(await countInvoices(m, 'idem-3')).toBe(1);
    expect(await countInvoices(m, 'idem-3-other')).toBe(0);
    // The refusals did not overwrite the record: the original request still replays.
    const replay = await withKey(key, { amount: '10', order_id: 'idem-3', metadata: { a: '1' } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  test('a request that fails validation stores nothing, so the key works with a corrected body', async () => {
    const key = newKey();
    for (const bad of [{ amount: '10.001' }, { amount: 10 }, { amount: '10', extra: 1 }]) {
      const res = await withKey(key, bad);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.details.errors[0].in).toBe('body');
    }
    expect(await storedKeys(key)).toHaveLength(0);

    const res = await withKey(key, { amount: '10.00', order_id: 'idem-4' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await storedKeys(key)).toHaveLength(1);
  });

  test('keys are scoped to the project', async () => {
    const other = await createMerchant(t.app);
    const key = newKey();
    const mine = await withKey(key, { amount: '1.00', order_id: 'idem-5' });
    // The very same request in another project is a new invoice, never the first project's.
    const theirs = await withKey(key, { amount: '1.00', order_id: 'idem-5' }, other);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().data.id).not.toBe(mine.json().data.id);
    expect(theirs.json().data.project_id).toBe(other.projectId);
    expect(await countInvoices(m, 'idem-5')).toBe(1);
    expect(await countInvoices(other, 'idem-5')).toBe(1);

    // And a different request under the same key in a third project is no conflict either.
    const third = await createMerchant(t.app);
    expect((await withKey(key, { amount: '2.00' }, third)).statusCode).toBe(201);
  });

  test.each([
    ['empty', ''],
    ['with a space', 'my key'],
    ['256 characters long', 'k'.repeat(256)],
    ['non-ASCII', 'clé-1'],
    ['with a control character', 'key\u007f1'],
  ])('refuses a key that is %s, in the header, storing nothing', async (_name, key) => {
    const res = await withKey(key, { amount: '1.00', order_id: 'idem-bad-key' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ in: 'header', field: 'Idempotency-Key', rule: expect.any(String) }] },
    });
    expect(await countInvoices(m, 'idem-bad-key')).toBe(0);
  });

  test('accepts a key of 255 visible ASCII characters, and one of 1', async () => {
    const visible = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    for (const key of [(visible + visible + visible).slice(0, 255), '!']) {
      const first = await withKey(key, { amount: '3.00' });
      expect(first.statusCode, first.body).toBe(201);
      const again = await withKey(key, { amount: '3' });
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data.id).toBe(first.json().data.id);
    }
  });

  test('25 concurrent requests with one key make exactly one invoice, and all answer 201 with it', async () => {
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => withKey(key, { amount: '25.00', order_id: 'idem-race' })),
    );
    for (const res of responses) expect(res.statusCode, res.body).toBe(201);
    const data = responses.map((r) => r.json().data);
    for (const d of data) expect(d).toEqual(data[0]);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await countInvoices(m, 'idem-race')).toBe(1);
  });
});

describe('purgeIdempotencyKeys', () => {
  test('purges a key older than 24 hours, which then makes a new invoice', async () => {
    const key = newKey();
    const first = await withKey(key, { amount: '1.00', order_id: 'purge-1' });
    clock.advance(IDEMPOTENCY_RETENTION_MS + 1);
    expect(await purgeIdempotencyKeys(t.database.db, clock())).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(key)).toHaveLength(0);

    const second = await withKey(key, { amount: '2.00', order_id: 'purge-1' });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().data.id).not.toBe(first.json().data.id);
  });

  test('keeps a key that is 24 hours old or younger, which still replays', async () => {
    const key = newKey();
    const first = await withKey(key, { amount: '1.00', order_id: 'purge-2' });
    clock.advance(IDEMPOTENCY_RETENTION_MS);
    await purgeIdempotencyKeys(t.database.db, clock());
    expect(await storedKeys(key)).toHaveLength(1);

    const again = await withKey(key, { amount: '1', order_id: 'purge-2' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
    expectReusedKey(await withKey(key, { amount: '9.00', order_id: 'purge-2' }));
  });

  test('a key older than 24 hours that was not purged yet is taken over by a new request', async () => {
    const key = newKey();
    const first = await withKey(key, { amount: '1.00', order_id: 'purge-3' });
    clock.advance(IDEMPOTENCY_RETENTION_MS + 1);

    const second = await withKey(key, { amount: '7.00', order_id: 'purge-3' });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().data.id).not.toBe(first.json().data.id);

    // From now on the key belongs to the new request.
    const replay = await withKey(key, { amount: '7', order_id: 'purge-3' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(second.json().data.id);
    expectReusedKey(await withKey(key, { amount: '1.00', order_id: 'purge-3' }));
    expect(await countInvoices(m, 'purge-3')).toBe(2);
  });
});
