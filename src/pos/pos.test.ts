import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { FORM, formBody, merchantWithOwner } from '../../test/dashboard.js';
import { charge, cookieOf, createTill, enterPin, PIN, unlock } from '../../test/pos.js';

const clock = manualClock(new Date('2026-11-27T09:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const invoicesOf = (tillId: string) =>
  t.app.db.selectFrom('invoices').selectAll().where('till_id', '=', tillId).execute();

describe('a till made in the dashboard', () => {
  test('is listed with its link, keeps no PIN in clear, and refuses a bad PIN or price list whole', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'till-make@cafe.example');
    const bad = await owner.post('/dashboard/pos', { name: 'Bar', pin: '1234', items: 'Tea; free' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('The PIN must be 6 to 12 digits');
    expect(bad.body).toContain('Item line 1');
    expect(bad.body).not.toContain('1234"');
    const id = await createTill(owner, { name: 'Bar', items: 'Tea; 2.5; 7.7\nCake; 3' });
    const page = await owner.get('/dashboard/pos');
    expect(page.body).toContain(`http://paydesk.test/pos/${id}`);
    expect(page.body).toContain('Tea; 2.50; 7.7 · Cake; 3.00');
    const row = await t.app.db.selectFrom('tills').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.project_id).toBe(m.projectId);
    expect(row.pin_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(row)).not.toContain(PIN);
    expect(t.rawLogs()).not.toContain(PIN);
    expect((await t.app.db.selectFrom('tills').select('id').where('name', '=', 'Bar').execute()).length).toBe(
      1,
    );
    expect((await owner.get('/dashboard/team')).body).toContain('till.created');
  });
});

describe('the PIN', () => {
  test('a right PIN gives a cookie for this till only; a wrong one says how many tries are left', async () => {
    const { owner } = await merchantWithOwner(t.app, 'till-pin@cafe.example');
    const id = await createTill(owner);
    const locked = await t.app.inject({ url: `/pos/${id}` });
    expect(locked.statusCode).toBe(200);
    expect(locked.body).toContain('name="pin"');
    const wrong = await enterPin(t.app, id, '000000', '198.51.100.1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Wrong PIN. 4 more attempts');
    const right = await enterPin(t.app, id, PIN, '198.51.100.1');
    expect(right.statusCode).toBe(303);
    const setCookie = String(right.headers['set-cookie']);
    expect(setCookie).toContain(`Path=/pos/${id}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).not.toContain(PIN);
    const open = await t.app.inject({ url: `/pos/${id}`, headers: { cookie: cookieOf(right) } });
    expect(open.body).toContain('data-keypad');
    expect(open.body).toContain('>Charge<');
    // A shift later the cookie has run out.
    clock.advance(12 * 60 * 60_000 + 1000);
    const stale = await t.app.inject({ url: `/pos/${id}`, headers: { cookie: cookieOf(right) } });
    expect(stale.body).not.toContain('data-keypad');
  });

  test('five wrong PINs lock the till for 15 minutes, the right PIN too; then it opens again', async () => {
    const { owner } = await merchantWithOwner(t.app, 'till-lock@cafe.example');
    const id = await createTill(owner);
    for (let i = 0; i < 5; i++) {
      // From five addresses: the till's own counter locks it, whoever guesses.
      expect((await enterPin(t.app, id, '111111', `192.0.2.${i + 1}`)).statusCode).toBe(401);
    }
    const refused = await enterPin(t.app, id, PIN, '192.0.2.50');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(refused.body).toContain('The till is locked: try again in 15 minutes');
    expect(Number(refused.headers['retry-after'])).toBe(900);
    clock.advance(15 * 60_000);
    expect((await enterPin(t.app, id, PIN, '192.0.2.50')).statusCode).toBe(303);
  });

  test('one address guessing at several tills is locked on all of them', async () => {
    const { owner } = await merchantWithOwner(t.app, 'till-client@cafe.example');
    const tills = [await createTill(owner), await createTill(owner), await createTill(owner)];
    for (let i = 0; i < 5; i++) await enterPin(t.app, tills[i % 2] as string, '222222', '192.0.2.99');
    expect((await enterPin(t.app, tills[2] as string, PIN, '192.0.2.99')).statusCode).toBe(429);
    expect(new Set(tills).size).toBe(3);
    expect((await enterPin(t.app, tills[2] as string, PIN, '192.0.2.98')).statusCode).toBe(303);
  });
});

describe('a sale', () => {
  const items = 'Espresso; 2.50; 7.7\nCroissant; 3.10; 19\nWater; 1.00\nMint; 0.10; 5';

  test('items with tax and a keypad amount: exact totals, on the invoice, made at this till', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'till-sale@cafe.example');
    const id = await createTill(owner, { items });
    const cookie = await unlock(t.app, id);
    const cart = { amount: '4.35', qty: ['3', '1', '2', '1'] };
    // 3 × 2.50 = 7.50, tax 0.5775 → 0.58; 3.10 tax 0.589 → 0.59; 2 × 1.00 no tax; 0.10 tax 0.005 → 0.01
    // (half-up); subtotal 7.50 + 3.10 + 2.00 + 0.10 + 4.35 = 17.05; tax 1.18; total 18.23.
    const quote = await t.app.inject({
      method: 'POST',
      url: `/pos/${id}/quote`,
      payload: formBody(cart),
      headers: { ...FORM, cookie },
    });
    expect(quote.json().data).toEqual({ subtotal: '17.05 USDT', tax: '1.18 USDT', total: '18.23 USDT' });
    const res = await charge(t.app, id, cookie, cart);
    expect(res.statusCode).toBe(303);
    const invoiceId = /\/sales\/(inv_[A-Za-z0-9]+)/.exec(String(res.headers.location))?.[1] as string;
    const api = await t.app.inject({ url: `/v1/merchant/invoices/${invoiceId}`, headers: m.auth });
    expect(api.json().data.amount).toBe('18.23');
    expect(api.json().data.description).toBe(
      '3 × Espresso, 1 × Croissant, 2 × Water, 1 × Mint, 4.35 · tax 1.18',
    );
    expect((await invoicesOf(id)).map((i) => i.id)).toEqual([invoiceId]);
    const sale = await t.app.inject({ url: `/pos/${id}/sales/${invoiceId}`, headers: { cookie } });
    expect(sale.statusCode).toBe(200);
    expect(sale.body).toContain('<svg class="qr"');
    expect(sale.body).toContain(`data-status-url="../../../pay/${invoiceId}/status"`);
    expect(sale.body).toContain('Waiting for payment');
  });

  test('nothing to charge, a bad amount or quantity: refused, no invoice', async () => {
    const { owner } = await merchantWithOwner(t.app, 'till-empty@cafe.example');
    const id = await createTill(owner, { items });
    const cookie = await unlock(t.app, id);
    const forms: Array<Record<string, string | string[]>> = [
      {},
      { amount: '0' },
      { amount: '1.234' },
      { amount: '-1' },
      { qty: ['1000'] },
      { qty: ['x'] },
    ];
    for (const form of forms) {
      const res = await charge(t.app, id, cookie, form);
      expect(res.statusCode).toBe(422);
    }
    expect((await charge(t.app, id, cookie, { amount: '1', pin: PIN })).statusCode).toBe(422);
    expect(await invoicesOf(id)).toEqual([]);
  });

  test('a disabled till opens no page and charges nothing, even with its cookie', async () => {
    const { owner } = await merchantWithOwner(t.app, 'till-off@cafe.example');
    const id = await createTill(owner);
    const cookie = await unlock(t.app, id);
    const list = await owner.get('/dashboard/pos');
    expect(list.body).toContain(`/dashboard/pos/${id}/disable`);
    expect((await owner.post(`/dashboard/pos/${id}/disable`)).statusCode).toBe(303);
    expect((await t.app.inject({ url: `/pos/${id}`, headers: { cookie } })).statusCode).toBe(404);
    expect((await charge(t.app, id, cookie, { amount: '5' })).statusCode).toBe(404);
    expect((await enterPin(t.app, id, PIN)).statusCode).toBe(404);
    expect(await invoicesOf(id)).toEqual([]);
  });

  test('another project’s owner cannot disable the till; its cookie opens no other till', async () => {
    const a = await merchantWithOwner(t.app, 'till-a@cafe.example');
    const b = await merchantWithOwner(t.app, 'till-b@cafe.example');
    const tillA = await createTill(a.owner);
    const tillB = await createTill(b.owner);
    expect((await b.owner.post(`/dashboard/pos/${tillA}/disable`)).statusCode).toBe(404);
    expect((await b.owner.get('/dashboard/pos')).body).not.toContain(tillA);
    const cookieA = await unlock(t.app, tillA);
    const res = await charge(t.app, tillB, cookieA, { amount: '5' });
    expect(res.statusCode).toBe(401);
    expect(await invoicesOf(tillB)).toEqual([]);
    // A sale of till A is not shown at till B, even to till B's own session.
    const sold = await charge(t.app, tillA, cookieA, { amount: '5' });
    const invoiceId = /\/sales\/(inv_[A-Za-z0-9]+)/.exec(String(sold.headers.location))?.[1] as string;
    const cookieB = await unlock(t.app, tillB);
    expect(
      (await t.app.inject({ url: `/pos/${tillB}/sales/${invoiceId}`, headers: { cookie: cookieB } }))
        .statusCode,
    ).toBe(404);
  });
});
