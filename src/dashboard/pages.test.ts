import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createInvoice, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { merchantWithOwner, signIn } from '../../test/dashboard.js';
import { observeOne } from '../invoices/observe.js';
import { money } from '../money/money.js';

const clock = manualClock(new Date('2026-11-23T10:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock, env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(() => t.close());

const secretOn = (html: string, id: string) =>
  new RegExp(`id="${id}" type="text" readonly value="([^"]+)"`).exec(html)?.[1];

describe('API keys', () => {
  test('a key created in the dashboard works against the API until it is revoked there', async () => {
    const { owner } = await merchantWithOwner(t.app, 'keys@shop.example');
    const posted = await owner.post('/dashboard/api-keys', { name: 'Shop backend' });
    expect(posted.headers.location).toMatch(/^\/dashboard\/api-keys\/key_[A-Za-z0-9]+\/created\?form=/);
    const created = await owner.follow(posted);
    expect(created.statusCode).toBe(200);
    const secret = secretOn(created.body, 'secret-key');
    expect(secret).toMatch(/^svc_secret_/);
    // A reload of the result page: the key is there, its secret is not.
    const again = await owner.follow(posted);
    expect(again.statusCode).toBe(200);
    expect(again.body).not.toContain(secret as string);
    expect(again.body).toContain('cannot be shown again');
    const auth = { authorization: `Bearer ${secret}` };
    expect((await t.app.inject({ url: '/v1/merchant/me', headers: auth })).statusCode).toBe(200);
    const list = await owner.get('/dashboard/api-keys');
    expect(list.body).toContain('Shop backend');
    expect(list.body).not.toContain(secret as string);
    const id = /\/dashboard\/api-keys\/(key_[A-Za-z0-9]+)\/revoke/.exec(
      list.body.slice(list.body.indexOf('Shop backend')),
    )?.[1];
    const revoked = await owner.post(`/dashboard/api-keys/${id}/revoke`);
    expect(revoked.statusCode).toBe(303);
    const after = await t.app.inject({ url: '/v1/merchant/me', headers: auth });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('API_KEY_REVOKED');
    const team = await owner.get('/dashboard/team');
    expect(team.body).toContain('api_key.revoked');
    expect(team.body).toContain('api_key.created');
  });
});

describe('invoices', () => {
  test('filters, search, keyset pages, CSV and the detail page', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'invoices@shop.example');
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) {
      clock.advance(1000);
      ids.push((await createInvoice(t.app, m, { amount: '10.00', order_id: `order-${i}` })).json().data.id);
    }
    await admin(t.app, 'POST', `/v1/admin/invoices/${ids[3]}/simulate-payment`, {});
    const first = await owner.get('/dashboard/invoices');
    expect(first.statusCode).toBe(200);
    for (const h of ['Invoice', 'Order', 'Amount', 'Status', 'Created'])
      expect(first.body).toContain(`>${h}</th>`);
    expect(first.body).toContain(ids[54]);
    expect(first.body).not.toContain(ids[4]);
    const next = /href="(\/dashboard\/invoices\?after=[^"]+)"/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    const second = await owner.get(next as string);
    expect(second.body).toContain(ids[4]);
    expect(second.body).toContain(ids[0]);
    expect(second.body).not.toContain(ids[54]);
    expect(second.body).toContain('Previous page');

    const paid = await owner.get('/dashboard/invoices?status=paid');
    expect(paid.body).toContain(ids[3]);
    expect(paid.body.match(/<tr>/g)?.length).toBe(2);
    const byOrder = await owner.get('/dashboard/invoices?q=order-7');
    expect(byOrder.body).toContain(ids[7]);
    expect(byOrder.body.match(/<tr>/g)?.length).toBe(2);
    const byId = await owner.get(`/dashboard/invoices?q=${ids[9]}`);
    expect(byId.body).toContain('order-9');

    const csv = await owner.get('/dashboard/invoices/export.csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,order_id,status,amount/);
    expect(lines).toHaveLength(56);
    const paidCsv = await owner.get('/dashboard/invoices/export.csv?status=paid');
    expect(paidCsv.body.trim().split('\r\n')).toHaveLength(2);

    const detail = await owner.get(`/dashboard/invoices/${ids[3]}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('invoice.created');
    expect(detail.body).toContain('invoice.paid');
    expect(detail.body.indexOf('invoice.created')).toBeLessThan(detail.body.indexOf('invoice.paid</strong>'));
    expect(detail.body).toContain('Payments');
  });

  test("the detail page shows the invoice's way back to the shop", async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'return@shop.example');
    const urls = {
      redirect_url: 'https://shop.example/orders/7?a=1&b=2',
      cancel_url: 'https://shop.example/cart',
    };
    const id = (await createInvoice(t.app, m, { amount: '10.00', ...urls })).json().data.id;
    const detail = await owner.get(`/dashboard/invoices/${id}`);
    expect(detail.body).toContain('Return URL');
    expect(detail.body).toContain('https://shop.example/orders/7?a=1&amp;b=2');
    expect(detail.body).toContain('https://shop.example/cart');
  });

  test('an invoice of several methods: the methods with their addresses, then every payment on its own network and token', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'methods@shop.example', {
      currency: 'USD',
      payment_methods: [
        { network: 'sandbox', currency: 'USDT' },
        { network: 'sandbox', currency: 'USDC' },
      ],
    });
    const invoice = (await createInvoice(t.app, m, { amount: '10.00', order_id: 'multi-1' })).json().data;
    expect(invoice).toMatchObject({ network: null, pay_address: null });
    // Neither the list nor the CSV needs a network.
    expect((await owner.get('/dashboard/invoices')).body).toContain(invoice.id);
    const csv = (await owner.get('/dashboard/invoices/export.csv')).body.trim().split('\r\n');
    expect(csv[1]).toMatch(new RegExp(`^${invoice.id},multi-1,pending,10.00,0.00,USD,,,`));
    const before = await owner.get(`/dashboard/invoices/${invoice.id}`);
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Chosen by the first payment');
    const address = invoice.payment_methods[0].pay_address;
    for (const label of ['USDT on Sandbox', 'USDC on Sandbox']) {
      expect(before.body).toMatch(
        new RegExp(`<tr><td>${label}</td><td><code>${address}</code></td><td class="num">10.000000 US`),
      );
    }
    expect(before.body).toContain('No payment yet.');

    // Part in USDT, the rest in USDC, and a transfer of a token this invoice does not take.
    const pay = (body: object) =>
      admin(t.app, 'POST', `/v1/admin/invoices/${invoice.id}/simulate-payment`, body);
    await pay({ amount: '4.00', currency: 'USDT', tx_hash: '0xusdt' });
    clock.advance(1000);
    await observeOne(
      t.app.db,
      invoice.id,
      {
        kind: 'payment',
        txHash: '0xa1b2',
        network: 'polygon',
        currency: 'USDT',
        amount: money('1.00'),
        confirmed: true,
        accepted: false,
      },
      { now: clock(), publicBaseUrl: t.app.config.publicBaseUrl },
    );
    clock.advance(1000);
    await pay({ currency: 'USDC', tx_hash: '0xusdc' });
    const after = await owner.get(`/dashboard/invoices/${invoice.id}`);
    expect(after.body).toContain('badge-paid');
    const rows = [
      ...after.body.matchAll(
        /<tr><td>([^<]+)<\/td><td>(USD[TC])<\/td><td>(.*?)<\/td><td class="num">([0-9.]+)<\/td><td><span class="badge badge-([a-z]+)">/g,
      ),
    ];
    expect(rows.map((r) => [r[1], r[2], r[4], r[5]])).toEqual([
      ['Sandbox', 'USDT', '4.00', 'confirmed'],
      ['Polygon', 'USDT', '1.00', 'unaccepted'],
      ['Sandbox', 'USDC', '6.00', 'confirmed'],
    ]);
    // The explorer link of the network the payment was made on.
    expect(rows[1]?.[3]).toContain('href="https://polygonscan.com/tx/0xa1b2"');
    expect(after.body).toContain('never counted towards the amount paid');
    // In the order written, the last payment's detection and the paid event sharing one instant.
    const events = [...after.body.matchAll(/<li><p><strong>(invoice\.[a-z_]+)<\/strong>/g)].map((e) => e[1]);
    expect(events).toEqual([
      'invoice.created',
      'invoice.payment_detected',
      'invoice.payment_unaccepted',
      'invoice.payment_detected',
      'invoice.paid',
    ]);
    // The network and address are the first payment's now.
    expect(after.body).toMatch(/<dt>Network<\/dt><dd>Sandbox<\/dd>/);
  });

  test('dust and money after close are listed with why they were not credited, and money after close is refundable', async () => {
    const email = 'after-close@shop.example';
    const { m } = await merchantWithOwner(t.app, email, { invoice_ttl_seconds: 60 });
    const invoice = (await createInvoice(t.app, m, { amount: '10.00' })).json().data;
    const pay = (body: object) =>
      admin(t.app, 'POST', `/v1/admin/invoices/${invoice.id}/simulate-payment`, body);
    await pay({ amount: '0.01', tx_hash: '0xdust' });
    clock.advance(61_000 + 24 * 3600_000 + 1000); // past the deadline and the late window
    await pay({ amount: '2.00', tx_hash: '0xlate' });
    const owner = await signIn(t.app, email); // a day later: a new session
    const page = (await owner.get(`/dashboard/invoices/${invoice.id}`)).body;
    expect(page).toContain('badge-expired');
    const rows = [
      ...page.matchAll(
        /<tr><td>([^<]+)<\/td><td>(USD[TC])<\/td><td>.*?<\/td><td class="num">([0-9.]+)<\/td><td><span class="badge badge-([a-z_]+)">/g,
      ),
    ];
    expect(rows.map((r) => [r[3], r[4]])).toEqual([
      ['0.01', 'dust'],
      ['2.00', 'after_close'],
    ]);
    expect(page).toContain('A dust payment is too small to count on its own (below 1.00 % of the amount)');
    expect(page).toContain('An after_close payment reached the address once the invoice was closed');
    // Dust alone let the invoice expire; the money after close is announced, and refundable.
    const events = [...page.matchAll(/<li><p><strong>(invoice\.[a-z_]+)<\/strong>/g)].map((e) => e[1]);
    expect(events).toEqual(['invoice.created', 'invoice.expired', 'invoice.payment_after_close']);
    expect(page).toContain('Up to 2.00 USDT is left to refund');
  });

  test('a formula in an order id is defused in the CSV', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'csv@shop.example');
    await createInvoice(t.app, m, { amount: '1.00', order_id: '=HYPERLINK("http://evil")' });
    const csv = await owner.get('/dashboard/invoices/export.csv');
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });
});

describe('webhooks', () => {
  test('add, send a test event, roll the secret, disable and enable', async () => {
    const { owner } = await merchantWithOwner(t.app, 'hooks@shop.example');
    const posted = await owner.post('/dashboard/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['invoice.paid', 'invoice.expired'],
    });
    const added = await owner.follow(posted);
    expect(added.statusCode).toBe(200);
    const secret = secretOn(added.body, 'signing-secret');
    expect(secret).toMatch(/^whsec_/);
    expect((await owner.follow(posted)).body).not.toContain(secret as string);
    const page = await owner.get('/dashboard/webhooks');
    expect(page.body).toContain('http://127.0.0.1:9/hook');
    expect(page.body).toContain('invoice.paid, invoice.expired');
    expect(page.body).not.toContain(secret as string);
    const id = /\/dashboard\/webhooks\/(we_[A-Za-z0-9]+)\/test/.exec(page.body)?.[1];
    expect((await owner.post(`/dashboard/webhooks/${id}/test`)).statusCode).toBe(303);
    const roll = await owner.post(`/dashboard/webhooks/${id}/roll`);
    const rolled = await owner.follow(roll);
    const next = secretOn(rolled.body, 'signing-secret');
    expect((await owner.follow(roll)).body).not.toContain(next as string);
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect((await owner.post(`/dashboard/webhooks/${id}/disable`)).statusCode).toBe(303);
    expect((await owner.get('/dashboard/webhooks')).body).toContain('>Enable</button>');
    expect((await owner.post(`/dashboard/webhooks/${id}/enable`)).statusCode).toBe(303);
    expect((await owner.get('/dashboard/webhooks')).body).toContain('>Disable</button>');
  });

  test('an endpoint URL the SSRF rules refuse is shown on the form and nothing is added', async () => {
    const { owner } = await merchantWithOwner(t.app, 'ssrf@shop.example');
    for (const url of ['http://169.254.169.254/latest/meta-data', 'ftp://example.com/x', 'not a url']) {
      const res = await owner.post('/dashboard/webhooks', { url });
      expect(res.statusCode, url).toBe(422);
      expect(res.body).toContain('role="alert"');
    }
    expect((await owner.get('/dashboard/webhooks')).body).toContain('No endpoints yet');
  });
});

describe('overview and team', () => {
  test('the overview shows counts by status and a chart with its table', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'overview@shop.example');
    const inv = (await createInvoice(t.app, m, { amount: '12.34' })).json().data.id;
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv}/simulate-payment`, {});
    await createInvoice(t.app, m, { amount: '1.00' });
    const page = await owner.get('/dashboard');
    expect(page.body).toContain('<h1>Overview</h1>');
    expect(page.body).toContain('<svg class="chart"');
    expect(page.body).toContain('12.34');
    expect(page.body).toMatch(/<dt>pending<\/dt><dd><a [^>]*>1<\/a>/);
  });

  test('an owner invites a viewer from the Team page', async () => {
    const { owner } = await merchantWithOwner(t.app, 'team@shop.example');
    const posted = await owner.post('/dashboard/team/invite', {
      email: 'viewer@shop.example',
      role: 'viewer',
    });
    const res = await owner.follow(posted);
    expect(res.statusCode).toBe(200);
    const link = secretOn(res.body, 'invite-link');
    expect(link).toMatch(/\/dashboard\/invite\//);
    expect((await owner.follow(posted)).body).not.toContain(link as string);
    const team = await owner.get('/dashboard/team');
    expect(team.body).toContain('viewer@shop.example');
    expect(team.body).toContain('user.invited');
  });
});
