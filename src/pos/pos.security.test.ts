import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { FORM, formBody, merchantWithOwner } from '../../test/dashboard.js';
import { charge, cookieOf, createTill, enterPin, unlock } from '../../test/pos.js';
import { moneyState, tryEveryRoute } from '../../test/public-surface.js';

/**
 * The till's routes are public: only the till's own session cookie, from its PIN, may charge or show
 * anything of it. Tried without a cookie, with a wrong PIN, a forged cookie and another till's cookie.
 */
let t: TestApp;
let till: string;
let other: string;
let otherCookie: string;
let saleId: string;
const SECRET_ITEM = 'Saffron bun';
beforeAll(async () => {
  t = await startTestApp();
  const { owner } = await merchantWithOwner(t.app, 'till-security@cafe.example');
  till = await createTill(owner, { name: 'Front', items: `${SECRET_ITEM}; 4.20; 10` });
  other = await createTill((await merchantWithOwner(t.app, 'till-other@cafe.example')).owner, {
    name: 'Other',
  });
  otherCookie = await unlock(t.app, other);
  const sold = await charge(t.app, till, await unlock(t.app, till), { qty: '1' });
  saleId = /\/sales\/(inv_[A-Za-z0-9]+)/.exec(String(sold.headers.location))?.[1] as string;
});
afterAll(() => t.close());

const invoiceCount = async () => (await t.app.db.selectFrom('invoices').select('id').execute()).length;

describe('every /pos route', () => {
  test('any method, query and body, without the till cookie: no invoice, no money moves, no 5xx', async () => {
    const tried = await tryEveryRoute(t, '/pos', {
      id: [till, 'till_x'],
      invoice: [saleId],
      name: ['pos.css'],
    });
    expect(tried).toEqual(
      expect.arrayContaining([
        '/pos/:id',
        '/pos/:id/unlock',
        '/pos/:id/charge',
        '/pos/:id/quote',
        '/pos/:id/sales/:invoice',
      ]),
    );
  });

  test('a forged, altered, expired-looking or other till’s cookie: the PIN page, never a sale or its data', async () => {
    const now = Math.floor(Date.now() / 1000);
    const real = await unlock(t.app, till);
    const [, issued, tag] = real.split('=')[1]?.split('.') ?? [];
    const cookies = [
      undefined,
      `paydesk_till=${till}.${now}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      `paydesk_till=${till}.${Number(issued) + 1}.${tag}`,
      `paydesk_till=${other}.${issued}.${tag}`,
      `paydesk_till=${till}.${issued}`,
      otherCookie,
      `paydesk_session=${tag}`,
    ];
    const before = await moneyState(t.app);
    for (const cookie of cookies) {
      const headers = cookie ? { cookie } : {};
      const form = (body: Record<string, string>) => ({
        headers: { ...FORM, ...headers },
        payload: formBody(body),
      });
      const answers = [
        await t.app.inject({ url: `/pos/${till}`, headers }),
        await t.app.inject({ url: `/pos/${till}/sales/${saleId}`, headers }),
        await t.app.inject({
          method: 'POST',
          url: `/pos/${till}/charge`,
          ...form({ amount: '9.00', qty: '2' }),
        }),
        await t.app.inject({ method: 'POST', url: `/pos/${till}/quote`, ...form({ qty: '2' }) }),
      ];
      for (const res of answers) {
        expect(res.statusCode, `${cookie}`).not.toBe(303);
        expect(res.body).not.toContain(SECRET_ITEM);
        expect(res.body).not.toContain(saleId);
        expect(res.body).not.toContain('data-keypad');
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    }
    expect(await moneyState(t.app)).toEqual(before);
  });

  test('a wrong PIN sets no cookie and shows nothing of the till but its name', async () => {
    const count = await invoiceCount();
    const res = await enterPin(t.app, till, '999999', '198.18.0.1');
    expect(res.statusCode).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toContain('Front');
    expect(res.body).not.toContain(SECRET_ITEM);
    expect(await invoiceCount()).toBe(count);
  });

  test('a cross-site post is refused, even with the cookie a browser would not send', async () => {
    const count = await invoiceCount();
    const cookie = await unlock(t.app, till);
    const res = await t.app.inject({
      method: 'POST',
      url: `/pos/${till}/charge`,
      headers: { ...FORM, cookie, 'sec-fetch-site': 'cross-site' },
      payload: formBody({ amount: '5' }),
    });
    expect(res.statusCode).toBe(403);
    expect(await invoiceCount()).toBe(count);
    expect(cookieOf(await enterPin(t.app, till, '000000', '198.18.0.2'))).toBe('');
  });
});
