import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMerchant, type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { createLink, pressPay, tokenOf } from '../../test/links.js';
import { LINK_PAGE_LIMIT, LINK_PAY_LIMIT } from './page.routes.js';
import { TOKEN_BUCKET_MS } from './token.js';

// A clock at the start of a minute, so each test's requests fall in one rate-limit window.
const clock = manualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1000));
let t: TestApp;
let m: Merchant;
let linkId: string;
beforeAll(async () => {
  t = await startTestApp({ clock });
  m = await createMerchant(t.app);
  linkId = (await createLink(t.app, m, { title: 'Espresso beans', amount: '12.00' })).id;
});
afterAll(() => t.close());

const invoiceCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('payment_link_id', '=', linkId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the public link page, without credentials, against a live project', () => {
  test('1,000 views (GET and HEAD, crawlers and link previews among them) make no invoice', async () => {
    const agents = ['Mozilla/5.0', 'Googlebot/2.1', 'Slackbot-LinkExpanding 1.0', 'facebookexternalhit/1.1'];
    const started = process.cpuUsage();
    for (let i = 0; i < 1000; i++) {
      // Each view from its own address: the page limit is per address, and is not what stops them.
      const res = await t.app.inject({
        method: i % 4 === 3 ? 'HEAD' : 'GET',
        url: `/l/${linkId}${i % 2 ? '?lang=zh' : ''}`,
        remoteAddress: `10.1.${i >> 8}.${i & 255}`,
        headers: { 'user-agent': agents[i % agents.length] as string },
      });
      expect(res.statusCode).toBe(200);
    }
    const cpu = process.cpuUsage(started);
    console.log(`1,000 link views: ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU`);
    expect(await invoiceCount()).toBe(0);
    expect((await t.app.inject({ url: `/l/${linkId}` })).headers['x-robots-tag'] as string).toBe('noindex');
  });

  test('a post without a token (the pay button), or from another site, only shows the page', async () => {
    const button = await t.app.inject({
      method: 'POST',
      url: `/l/${linkId}`,
      remoteAddress: '10.2.0.1',
      headers: form,
      payload: '',
    });
    expect(button.statusCode).toBe(200);
    expect(button.body).toContain('name="token"');
    const token = tokenOf(button.body);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: `/l/${linkId}`,
      remoteAddress: '10.2.0.2',
      headers: { ...form, 'sec-fetch-site': 'cross-site' },
      payload: `token=${encodeURIComponent(token)}`,
    });
    expect(crossSite.statusCode).toBe(200);
    expect(await invoiceCount()).toBe(0);
  });

  test('a forged, foreign or old form token is refused and makes nothing', async () => {
    const page = await t.app.inject({ url: `/l/${linkId}`, remoteAddress: '10.3.0.1' });
    const good = tokenOf(page.body);
    const other = (await createLink(t.app, m)).id;
    const otherToken = tokenOf((await t.app.inject({ url: `/l/${other}`, remoteAddress: '10.3.0.1' })).body);
    const [bucket] = good.split('.');
    const forged = [
      `${bucket}.${'A'.repeat(43)}`,
      otherToken,
      'x',
      `${Number(bucket) + 1}.${good.split('.')[1]}`,
    ];
    for (const [i, token] of forged.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/l/${linkId}`,
        remoteAddress: `10.3.1.${i}`,
        headers: { ...form, 'sec-fetch-site': 'same-origin' },
        payload: `token=${encodeURIComponent(token)}`,
      });
      expect(res.statusCode, token).toBe(403);
      expect(res.body).toContain('out of date');
    }
    clock.advance(2 * TOKEN_BUCKET_MS);
    const old = await t.app.inject({
      method: 'POST',
      url: `/l/${linkId}`,
      remoteAddress: '10.3.2.1',
      headers: { ...form, 'sec-fetch-site': 'same-origin' },
      payload: `token=${encodeURIComponent(good)}`,
    });
    expect(old.statusCode).toBe(403);
    expect(await invoiceCount()).toBe(0);
  });

  test('an unknown link is the 404 page; a deactivated project makes nothing', async () => {
    const res = await t.app.inject({ url: '/l/plink_nothing00000000000000000' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const other = await createMerchant(t.app);
    const link = await createLink(t.app, other);
    const pressed = pressPay(t.app, link.id, {}, '10.4.0.1', async () => {
      await t.app.inject({
        method: 'PATCH',
        url: `/v1/admin/projects/${other.projectId}`,
        headers: { authorization: 'Bearer test-admin-token-0123456789' },
        payload: { status: 'inactive' },
      });
    });
    expect((await pressed).statusCode).toBe(409);
  });

  test('views and presses are limited per client address', async () => {
    clock.set(new Date(Math.ceil(clock().getTime() / 60_000) * 60_000 + 1000));
    const address = '10.5.0.1';
    for (let i = 0; i < LINK_PAGE_LIMIT.max; i++) {
      expect((await t.app.inject({ url: `/l/${linkId}`, remoteAddress: address })).statusCode).toBe(200);
    }
    const limited = await t.app.inject({ url: `/l/${linkId}`, remoteAddress: address });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    const presser = '10.5.0.2';
    for (let i = 0; i < LINK_PAY_LIMIT.max; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/l/${linkId}`,
        remoteAddress: presser,
        headers: form,
        payload: '',
      });
      expect(res.statusCode).toBe(200);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: `/l/${linkId}`,
      remoteAddress: presser,
      headers: form,
      payload: '',
    });
    expect(res.statusCode).toBe(429);
  });
});
