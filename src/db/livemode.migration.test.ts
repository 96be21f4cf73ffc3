import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN_TOKEN, admin, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { databaseBefore } from '../../test/database.js';
import { watchedBuiltins } from '../../test/watched-node.js';
import { openDatabase } from './database.js';

/**
 * Contract §21 on a database made before live and test were kept apart (migration 0016): a project
 * that mixes `ethereum:USDT` and `sandbox:USDT`, with an open invoice offering both. After the upgrade
 * the open invoice is kept (live: nobody simulates it), new invoices offer only the live method, and
 * the project reads as live.
 */
let before: Awaited<ReturnType<typeof databaseBefore>>;
let t: TestApp;
// An EIP-55 address (the standard's own example), as deposit addresses are written.
const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

beforeAll(async () => {
  before = await databaseBefore('0016');
  const old = await openDatabase(before.url, { bounds: null });
  const methods = JSON.stringify([
    { network: 'ethereum', currency: 'USDT' },
    { network: 'sandbox', currency: 'USDT' },
  ]);
  const offered = JSON.stringify([
    { network: 'ethereum', currency: 'USDT', pay_address: ADDRESS, decimals: 6 },
    { network: 'sandbox', currency: 'USDT', pay_address: 'sandbox_old', decimals: 6 },
  ]);
  try {
    await sql`insert into accounts (id, name, status, created_at, updated_at)
              values ('acct_old', 'Old', 'active', now(), now())`.execute(old.db);
    await sql`insert into projects (id, account_id, name, status, currency, network, payment_methods, evm_xpub,
                                    invoice_ttl_seconds, created_at, updated_at)
              values ('prj_mixed0000000000000000000', 'acct_old', 'Mixed', 'active', 'USDT', 'ethereum', ${methods}::jsonb,
                      ${TEST_XPUB}, 3600, now(), now()),
                     ('prj_test00000000000000000000', 'acct_old', 'Test', 'active', 'USDT', 'sandbox',
                      '[{"network":"sandbox","currency":"USDT"}]'::jsonb, null, 3600, now(), now())`.execute(
      old.db,
    );
    await sql`insert into invoices (id, project_id, status, amount, currency, token_amount, network, payment_methods,
                                    metadata, payment_expires_at, evm_address, due_at, open_until, created_at, updated_at)
              values ('inv_oldmixed0000000000000000', 'prj_mixed0000000000000000000', 'pending', 500, 'USDT', 500, null, ${offered}::jsonb,
                      '{}', now() + interval '1 hour', ${ADDRESS}, now() + interval '1 hour',
                      now() + interval '1 day', now(), now()),
                     ('inv_oldtest00000000000000000', 'prj_test00000000000000000000', 'pending', 10, 'USDT', 10, 'sandbox',
                      '[{"network":"sandbox","currency":"USDT","pay_address":"sandbox_t","decimals":6}]'::jsonb,
                      '{}', now() + interval '1 hour', null, now() + interval '1 hour',
                      now() + interval '1 day', now(), now())`.execute(old.db);
  } finally {
    await old.close();
  }
  // The upgrade: the app's own migrations bring the database to now (0016 and after).
  const upgraded = await openDatabase(before.url, { bounds: null });
  const { migrate } = await import('./migrate.js');
  await migrate(upgraded.db);
  await upgraded.close();
  t = await startTestApp({ databaseUrl: before.url, env: watchedBuiltins() });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await before?.drop();
});

const keyOf = async (project: string) => {
  const key = await admin(t.app, 'POST', `/v1/admin/projects/${project}/api-keys`, { name: 'k' });
  return { authorization: `Bearer ${key.secret}` };
};

test('the open invoice of a mixed project is kept, live, and no simulation pays it', async () => {
  const auth = await keyOf('prj_mixed0000000000000000000');
  const id = 'inv_oldmixed0000000000000000';
  const read = async () =>
    (await t.app.inject({ url: `/v1/merchant/invoices/${id}`, headers: auth })).json().data;
  expect(await read()).toMatchObject({ status: 'pending', livemode: true, amount_paid: '0.00' });
  const page = await t.app.inject({
    method: 'POST',
    url: `/pay/${id}/simulate?method=sandbox:USDT`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(page.statusCode).toBe(404);
  const api = await t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${id}/simulate-payment`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {},
  });
  expect(api.statusCode).toBe(422);
  expect(await read()).toMatchObject({
    status: 'pending',
    livemode: true,
    amount_paid: '0.00',
    payments: [],
  });
  const paid = await t.database.db.selectFrom('events').select('type').where('invoice_id', '=', id).execute();
  expect(paid.map((e) => e.type)).not.toContain('invoice.paid');
});

test('the project reads as live; its new invoices offer only the live method until its methods are saved', async () => {
  const auth = await keyOf('prj_mixed0000000000000000000');
  const made = await t.app.inject({
    method: 'POST',
    url: '/v1/merchant/invoices',
    headers: auth,
    payload: { amount: '5.00' },
  });
  expect(made.statusCode, made.body).toBe(201);
  expect(made.json().data).toMatchObject({ livemode: true, payment_methods: [{ network: 'ethereum' }] });
  // Other settings stay editable; saving the mix again is refused.
  const renamed = await t.app.inject({
    method: 'PATCH',
    url: '/v1/admin/projects/prj_mixed0000000000000000000',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { name: 'Renamed' },
  });
  expect(renamed.statusCode, renamed.body).toBe(200);
  expect(renamed.json().data).toMatchObject({ livemode: true, name: 'Renamed' });
  const resaved = await t.app.inject({
    method: 'PATCH',
    url: '/v1/admin/projects/prj_mixed0000000000000000000',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {
      payment_methods: [
        { network: 'ethereum', currency: 'USDT' },
        { network: 'sandbox', currency: 'USDT' },
      ],
    },
  });
  expect(resaved.statusCode).toBe(422);
  expect(resaved.json().error.details.errors).toEqual([
    expect.objectContaining({ field: 'payment_methods', rule: 'mixed_environments' }),
  ]);
});

test('an open sandbox invoice of before is a test invoice and is still simulated', async () => {
  const id = 'inv_oldtest00000000000000000';
  const res = await t.app.inject({ method: 'POST', url: `/pay/${id}/simulate` });
  expect(res.statusCode).toBe(303);
  const auth = await keyOf('prj_test00000000000000000000');
  const after = (await t.app.inject({ url: `/v1/merchant/invoices/${id}`, headers: auth })).json().data;
  expect(after).toMatchObject({ status: 'paid', livemode: false, amount_paid: '10.00' });
});
