import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import { freshDatabase, onPostgres } from '../../test/database.js';
import { createWriter, invoiceReader } from './repository.js';

/**
 * Group commit (issue 12): concurrent creates share one statement and one commit, and every
 * guarantee still holds for each request on its own. The requests below are sent at once, so all but
 * the first queue behind a write in progress; each test checks that batches did form.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const burst = (n: number, send: (i: number) => Promise<LightMyRequestResponse>) =>
  Promise.all(Array.from({ length: n }, (_, i) => send(i)));

/** The largest batch written since `before` (a snapshot of the writer's histogram). */
function largestBatchSince(before: ReadonlyMap<number, number>): number {
  const sizes = createWriter(t.database.db).batchSizes();
  return Math.max(0, ...[...sizes].filter(([size, n]) => n > (before.get(size) ?? 0)).map(([size]) => size));
}
const snapshot = () => new Map(createWriter(t.database.db).batchSizes());

async function invoiceCount(projectId: string) {
  return Number(
    (
      await t.database.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow()
    ).n,
  );
}

async function createdEvents(projectId: string) {
  return t.database.db
    .selectFrom('events')
    .select(['invoice_id'])
    .where('project_id', '=', projectId)
    .where('type', '=', 'invoice.created')
    .execute();
}

describe('concurrent creates are written in batches', () => {
  test('40 at once: each its own invoice, its own trace id, exactly one invoice.created each', async () => {
    const m = await createMerchant(t.app);
    const before = snapshot();
    const res = await burst(40, (i) =>
      createInvoice(t.app, m, { amount: `${i + 1}.00`, order_id: `o-${i}` }),
    );
    expect(largestBatchSince(before)).toBeGreaterThan(1);
    expect(res.map((r) => r.statusCode)).toEqual(Array(40).fill(201));
    const bodies = res.map((r) => r.json());
    bodies.forEach((b, i) => {
      expect(b.data).toMatchObject({ amount: `${i + 1}.00`, order_id: `o-${i}`, status: 'pending' });
      expect(res[i]?.headers['x-trace-id']).toBe(b.trace_id);
    });
    expect(new Set(bodies.map((b) => b.trace_id)).size).toBe(40);
    expect(new Set(bodies.map((b) => b.data.id)).size).toBe(40);
    expect(await invoiceCount(m.projectId)).toBe(40);
    const events = await createdEvents(m.projectId);
    expect(events.map((e) => e.invoice_id).sort()).toEqual(bodies.map((b) => b.data.id).sort());
  });

  // The events' bodies are written in the batch's one statement (repository.ts): each must land on its
  // own invoice's event, byte for byte, whatever its text holds (quotes, backslashes, escapes).
  test('each invoice.created body lands on its own invoice, byte for byte, in a batch', async () => {
    const m = await createMerchant(t.app);
    const before = snapshot();
    const tricky = [
      '"quoted"',
      'back\\slash',
      '\\u001e not a separator',
      'emoji 🧾',
      'ünïcødé',
      '{"json":1}',
    ];
    const res = await burst(24, (i) =>
      createInvoice(t.app, m, {
        amount: `${i + 1}.00`,
        order_id: `sep-${i}`,
        metadata: { note: tricky[i % tricky.length] as string, i: String(i) },
      }),
    );
    expect(largestBatchSince(before)).toBeGreaterThan(1);
    expect(res.map((r) => r.statusCode)).toEqual(Array(24).fill(201));
    const stored = await t.database.db
      .selectFrom('events')
      .select(['invoice_id', 'body'])
      .where('project_id', '=', m.projectId)
      .where('type', '=', 'invoice.created')
      .execute();
    expect(stored).toHaveLength(24);
    const byInvoice = new Map(stored.map((e) => [e.invoice_id, e.body]));
    for (const r of res) {
      const answer = r.json().data;
      const body = byInvoice.get(answer.id) as string;
      expect(JSON.parse(body).data.invoice).toEqual(answer);
      expect(body).toContain(JSON.stringify(answer.metadata));
      // Stored as the text Node made, not re-written by the database (a jsonb round trip would add
      // spaces and reorder keys): what every webhook attempt signs and sends.
      expect(body).toBe(JSON.stringify(JSON.parse(body)));
    }
  });

  test('one Idempotency-Key sent 20 times at once: one invoice, every answer 201 with it', async () => {
    const m = await createMerchant(t.app);
    const before = snapshot();
    const res = await burst(20, () =>
      createInvoice(t.app, m, { amount: '5' }, { 'idempotency-key': 'same-key-in-a-batch' }),
    );
    expect(largestBatchSince(before)).toBeGreaterThan(1);
    expect(res.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(res.map((r) => r.json().data.id)).size).toBe(1);
    expect(res.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await invoiceCount(m.projectId)).toBe(1);
    expect(await createdEvents(m.projectId)).toHaveLength(1);
  });

  test('one key with two different bodies in one burst: the first body wins, the other is refused', async () => {
    const m = await createMerchant(t.app);
    const res = await burst(10, (i) =>
      createInvoice(t.app, m, { amount: i % 2 === 0 ? '5.00' : '6.00' }, { 'idempotency-key': 'two-bodies' }),
    );
    const created = res.filter((r) => r.statusCode === 201).map((r) => r.json().data);
    const refused = res.filter((r) => r.statusCode === 422).map((r) => r.json().error.details.errors[0]);
    expect(created.length + refused.length).toBe(10);
    expect(new Set(created.map((c) => c.id)).size).toBe(1);
    const winner = created[0]?.amount;
    // Every request with the winning body replays it; every other is told the key was used differently.
    res.forEach((r, i) => {
      const amount = i % 2 === 0 ? '5.00' : '6.00';
      expect(r.statusCode).toBe(amount === winner ? 201 : 422);
    });
    for (const e of refused)
      expect(e).toMatchObject({ field: 'Idempotency-Key', rule: 'reused_with_different_request' });
    expect(await invoiceCount(m.projectId)).toBe(1);
  });

  test('a key revoked while its requests queue: they answer API_KEY_REVOKED, their neighbours 201', async () => {
    const m = await createMerchant(t.app);
    const doomed = await admin(t.app, 'POST', `/v1/admin/projects/${m.projectId}/api-keys`, {
      name: 'doomed',
    });
    const doomedAuth = { authorization: `Bearer ${doomed.secret}` };
    // Cache the doomed key's principal first, so only the create statement's own check can stop it.
    expect((await createInvoice(t.app, { ...m, auth: doomedAuth })).statusCode).toBe(201);
    await admin(t.app, 'POST', `/v1/admin/api-keys/${doomed.api_key.id}/revoke`);
    const before = snapshot();
    const res = await burst(30, (i) => createInvoice(t.app, i % 3 === 0 ? { ...m, auth: doomedAuth } : m));
    expect(largestBatchSince(before)).toBeGreaterThan(1);
    res.forEach((r, i) => {
      if (i % 3 === 0) expect(r.json().error?.code, r.body).toBe('API_KEY_REVOKED');
      else expect(r.statusCode, r.body).toBe(201);
    });
    expect(await invoiceCount(m.projectId)).toBe(1 + 20);
  });

  test('invalid requests in a burst are refused alone; the valid ones are written', async () => {
    const m = await createMerchant(t.app);
    const res = await burst(20, (i) =>
      createInvoice(t.app, m, i % 4 === 0 ? { amount: '1.001' } : { amount: '1' }),
    );
    res.forEach((r, i) => {
      expect(r.statusCode).toBe(i % 4 === 0 ? 422 : 201);
    });
    expect(await invoiceCount(m.projectId)).toBe(15);
  });

  test("a row that breaks a database rule fails its own request only, never its neighbours'", async () => {
    const m = await createMerchant(t.app);
    // A rule the API does not know: it fails inside the batch statement, as a constraint would.
    await sql`alter table invoices add constraint test_no_poison check (order_id is distinct from 'poison')`.execute(
      t.database.db,
    );
    try {
      const before = snapshot();
      const res = await burst(20, (i) =>
        createInvoice(t.app, m, { amount: '1', order_id: i === 7 ? 'poison' : `fine-${i}` }),
      );
      expect(largestBatchSince(before)).toBeGreaterThan(1);
      res.forEach((r, i) => {
        if (i === 7) expect(r.json().error.code).toBe('INTERNAL_SERVER_ERROR');
        else expect(r.statusCode, r.body).toBe(201);
      });
      expect(await invoiceCount(m.projectId)).toBe(19);
      expect(await createdEvents(m.projectId)).toHaveLength(19);
    } finally {
      await sql`alter table invoices drop constraint test_no_poison`.execute(t.database.db);
    }
  });
});

describe('concurrent gets are read in batches', () => {
  test("each get answers for its own project and its own key: own 200, another's 404, revoked 401", async () => {
    const [mine, theirs] = [await createMerchant(t.app), await createMerchant(t.app)];
    const doomed = await admin(t.app, 'POST', `/v1/admin/projects/${mine.projectId}/api-keys`, {
      name: 'doomed',
    });
    const doomedAuth = { authorization: `Bearer ${doomed.secret}` };
    const own = (await createInvoice(t.app, mine)).json().data.id;
    const other = (await createInvoice(t.app, theirs)).json().data.id;
    // The doomed key's principal is cached before it is revoked: only the read's own check stops it.
    expect(
      (await t.app.inject({ url: `/v1/merchant/invoices/${own}`, headers: doomedAuth })).statusCode,
    ).toBe(200);
    await admin(t.app, 'POST', `/v1/admin/api-keys/${doomed.api_key.id}/revoke`);
    const asks = [
      { headers: mine.auth, id: own, status: 200 },
      { headers: mine.auth, id: other, status: 404 },
      { headers: theirs.auth, id: other, status: 200 },
      { headers: theirs.auth, id: own, status: 404 },
      { headers: doomedAuth, id: own, status: 401 },
      { headers: mine.auth, id: 'inv_000000000000000000000000', status: 404 },
    ];
    const before = new Map(invoiceReader(t.database.db).batchSizes());
    const res = await burst(asks.length * 5, (i) => {
      const ask = asks[i % asks.length] as (typeof asks)[number];
      return t.app.inject({ url: `/v1/merchant/invoices/${ask.id}`, headers: ask.headers });
    });
    res.forEach((r, i) => {
      const ask = asks[i % asks.length] as (typeof asks)[number];
      expect(r.statusCode, r.body).toBe(ask.status);
      if (ask.status === 200) expect(r.json().data.id).toBe(ask.id);
      if (ask.status === 401) expect(r.json().error.code).toBe('API_KEY_REVOKED');
    });
    const after = invoiceReader(t.database.db).batchSizes();
    expect([...after].some(([size, n]) => size > 1 && n > (before.get(size) ?? 0))).toBe(true);
  });
});

describe.skipIf(!onPostgres)('two instances sharing PostgreSQL', () => {
  test('one Idempotency-Key in bursts on both instances at once: exactly one invoice', async () => {
    const database = await freshDatabase();
    const [a, b] = await Promise.all([
      startTestApp({ databaseUrl: database.url }),
      startTestApp({ databaseUrl: database.url }),
    ]);
    try {
      const m = await createMerchant(a.app);
      const res = await burst(30, (i) =>
        createInvoice(
          i % 2 === 0 ? a.app : b.app,
          m,
          { amount: '9' },
          { 'idempotency-key': 'both-instances' },
        ),
      );
      expect(res.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
      expect(new Set(res.map((r) => r.json().data.id)).size).toBe(1);
      const n = await a.database.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('project_id', '=', m.projectId)
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  });
});
