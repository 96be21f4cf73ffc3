import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Paydesk } from '@paydesk/node';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  callPaydesk,
  demoFolder,
  freePort,
  killAll,
  type PaydeskProcess,
  removeTempDirs,
  SLOW,
  startPaydesk,
} from '../../../test/process.js';
import { eventually } from '../../../test/webhooks.js';
import { registerWebhookEndpoint } from './setup.js';

const SHOP_DIR = fileURLToPath(new URL('..', import.meta.url));
const ADMIN_TOKEN = 'shop-test-admin-token-0123456789';

/** Starts the shop exactly as its `npm start` does, with only the variables given. */
async function startShop(env: Record<string, string>) {
  const script: string = JSON.parse(readFileSync(`${SHOP_DIR}/package.json`, 'utf8')).scripts.start;
  const [command, ...args] = script.split(' ');
  if (command !== 'node') throw new Error(`unexpected start script: ${script}`);
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: SHOP_DIR,
    env: { PATH: process.env.PATH, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  shops.push(child);
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.setEncoding('utf8').on('data', (c) => (output += c));
  const exited = once(child, 'exit');
  await eventually(async () => /Shop listening on/.test(output) || child.exitCode !== null, 60_000);
  return { url: `http://127.0.0.1:${port}`, output: () => output, exited };
}
const shops: ChildProcess[] = [];

let paydesk: PaydeskProcess;
let secret: string;
let shop: Awaited<ReturnType<typeof startShop>>;
const admin = (method: string, url: string, body?: object) =>
  callPaydesk(paydesk.baseUrl, method, url, ADMIN_TOKEN, body);

// Paydesk as `npm start` runs it (embedded database with its demo project), and the shop pointing at it.
beforeAll(async () => {
  const folder = await demoFolder();
  secret = folder.secret;
  paydesk = await startPaydesk({
    cwd: folder.cwd,
    env: { PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN, PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
  await paydesk.ready();
  shop = await startShop({
    PAYDESK_SECRET_KEY: secret,
    PAYDESK_URL: paydesk.baseUrl,
    PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN,
  });
}, SLOW);
afterAll(async () => {
  for (const child of shops) if (child.exitCode === null) child.kill('SIGKILL');
  await killAll();
  await removeTempDirs();
});

const orderPage = async (orderId: string) => (await fetch(`${shop.url}/orders/${orderId}`)).text();

describe('the example shop against Paydesk', () => {
  test('registered its webhook endpoint on start', async () => {
    expect((await shopEndpoints()).map((e) => e.url)).toEqual([`${shop.url}/webhooks/paydesk`]);
  });

  test('sells a mug: pay with crypto, the webhook, and the order page says Paid', async () => {
    const product = await fetch(shop.url);
    expect(await product.text()).toMatch(/12\.50 USDT[\s\S]*<button>Pay with crypto<\/button>/);

    const checkout = await fetch(`${shop.url}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(checkout.status).toBe(303);
    const paymentUrl = checkout.headers.get('location') ?? '';
    const invoiceId = paymentUrl.match(/\/pay\/(inv_[A-Za-z0-9]+)$/)?.[1] ?? '';
    expect(paymentUrl).toBe(`${paydesk.baseUrl}/pay/${invoiceId}`);
    const payPage = await fetch(paymentUrl);
    expect(payPage.status).toBe(200);
    expect(await payPage.text()).toContain('12.50');

    const invoice = await new Paydesk(secret, { baseUrl: paydesk.baseUrl }).invoices.retrieve(invoiceId);
    expect(invoice).toMatchObject({
      amount: '12.50',
      status: 'pending',
      metadata: { product: 'Paydesk mug' },
    });
    const orderId = invoice.order_id ?? '';
    expect(invoice).toMatchObject({
      redirect_url: `${shop.url}/orders/${orderId}`,
      cancel_url: `${shop.url}/`,
    });
    expect(await orderPage(orderId)).toContain('Status: <strong>Awaiting payment</strong>');

    // A payment seen but not confirmed is not a reason to ship.
    await admin('POST', `/v1/admin/invoices/${invoiceId}/simulate-payment`, {
      confirmed: false,
      tx_hash: '0xshop',
    });
    await delivered('invoice.payment_detected');
    expect(await orderPage(orderId)).toContain('Status: <strong>Awaiting payment</strong>');

    await admin('POST', `/v1/admin/invoices/${invoiceId}/simulate-payment`, { tx_hash: '0xshop' });
    await eventually(async () => (await orderPage(orderId)).includes('Status: <strong>Paid</strong>'));
  });

  test('buy with a link: the pay button opens the link page, whose "Pay" makes the invoice', async () => {
    const product = await (await fetch(`${shop.url}/buy-with-a-link`)).text();
    const action = product.match(/<form method="post" action="([^"]+)"><button>Buy with a link/)?.[1] ?? '';
    expect(action).toMatch(new RegExp(`^${paydesk.baseUrl}/l/plink_[A-Za-z0-9]+$`));
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // The button's post, from the shop's page: it only shows the link page, with its own "Pay".
    const landed = await fetch(action, { method: 'POST', headers: form, body: '' });
    expect(landed.status).toBe(200);
    const token = (await landed.text()).match(/name="token" value="([^"]+)"/)?.[1] ?? '';
    const pay = await fetch(action, {
      method: 'POST',
      headers: form,
      body: `token=${token}`,
      redirect: 'manual',
    });
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toMatch(new RegExp(`^${paydesk.baseUrl}/pay/inv_`));
  });

  test('a project of several payment methods: the order lists them, and the mug is paid in two tokens', async () => {
    const { project } = await new Paydesk(secret, { baseUrl: paydesk.baseUrl }).me();
    const settings = `/v1/admin/projects/${project.id}`;
    await admin('PATCH', settings, {
      currency: 'USD',
      payment_methods: [
        { network: 'sandbox', currency: 'USDT' },
        { network: 'sandbox', currency: 'USDC' },
      ],
    });
    try {
      expect(await (await fetch(shop.url)).text()).toContain('12.50 USD</p>');
      const checkout = await fetch(`${shop.url}/orders`, { method: 'POST', redirect: 'manual' });
      const invoiceId = (checkout.headers.get('location') ?? '').split('/').pop() ?? '';
      const invoice = await new Paydesk(secret, { baseUrl: paydesk.baseUrl }).invoices.retrieve(invoiceId);
      expect(invoice).toMatchObject({ currency: 'USD', network: null, pay_address: null });
      const orderId = invoice.order_id ?? '';
      expect(await orderPage(orderId)).toContain('(USDT on sandbox, USDC on sandbox)');

      const pay = `/v1/admin/invoices/${invoiceId}/simulate-payment`;
      await admin('POST', pay, { amount: '5.00', currency: 'USDT', tx_hash: '0xpart-usdt' });
      await admin('POST', pay, { currency: 'USDC', tx_hash: '0xrest-usdc' });
      await eventually(async () =>
        (await orderPage(orderId)).includes('Paid with 5.00 USDT on sandbox and 7.50 USDC on sandbox'),
      );
    } finally {
      await admin('PATCH', settings, { currency: 'USDT', network: 'sandbox' });
    }
  });

  test('a payment the invoice cannot take is shown on the order, once, however often it is delivered', async () => {
    // A shop of its own, with a signing secret this test holds: Paydesk's sandbox cannot send a token
    // an invoice does not accept (a chain watcher reports those), so the test signs the event itself.
    const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const own = await startShop({
      PAYDESK_SECRET_KEY: secret,
      PAYDESK_URL: paydesk.baseUrl,
      PAYDESK_WEBHOOK_SECRET: webhookSecret,
    });
    const checkout = await fetch(`${own.url}/orders`, { method: 'POST', redirect: 'manual' });
    const invoiceId = (checkout.headers.get('location') ?? '').split('/').pop() ?? '';
    const invoice = await new Paydesk(secret, { baseUrl: paydesk.baseUrl }).invoices.retrieve(invoiceId);
    const payment = {
      tx_hash: '0xelsewhere',
      network: 'polygon',
      currency: 'USDC',
      amount: '12.50',
      confirmed: false,
    };
    const { confirmed: _, ...recorded } = payment;
    const event = {
      id: 'evt_unaccepted',
      type: 'invoice.payment_unaccepted',
      created_at: new Date().toISOString(),
      data: {
        invoice: {
          ...invoice,
          payments: [{ ...recorded, status: 'unaccepted', created_at: new Date().toISOString() }],
        },
        previous_status: 'pending',
        payment,
      },
    };
    const body = JSON.stringify(event);
    const at = new Date();
    const signature = new Webhook(webhookSecret.slice('whsec_'.length)).sign(event.id, at, body);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${own.url}/webhooks/paydesk`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
      });
      expect(res.status).toBe(200);
    }
    const order = await (await fetch(`${own.url}/orders/${invoice.order_id}`)).text();
    expect(order.match(/We cannot take 12\.50 USDC on polygon/g)).toHaveLength(1);
    expect(order).toContain('Status: <strong>Awaiting payment</strong>');
  });

  test('a webhook without Paydesk’s signature is refused and changes nothing', async () => {
    const checkout = await fetch(`${shop.url}/orders`, { method: 'POST', redirect: 'manual' });
    const invoiceId = (checkout.headers.get('location') ?? '').split('/').pop() ?? '';
    const invoice = await new Paydesk(secret, { baseUrl: paydesk.baseUrl }).invoices.retrieve(invoiceId);
    const forged = JSON.stringify({
      id: 'evt_forged',
      type: 'invoice.paid',
      created_at: new Date().toISOString(),
      data: { invoice: { ...invoice, status: 'paid' }, previous_status: 'pending' },
    });
    const headers = {
      'content-type': 'application/json',
      'webhook-id': 'evt_forged',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
    };
    const res = await fetch(`${shop.url}/webhooks/paydesk`, { method: 'POST', headers, body: forged });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^No signature matches/);
    expect(await orderPage(invoice.order_id ?? '')).toContain('Status: <strong>Awaiting payment</strong>');
  });

  test('setup replaces the endpoint an earlier start registered', async () => {
    const client = new Paydesk(secret, { baseUrl: paydesk.baseUrl });
    const options = { paydeskUrl: paydesk.baseUrl, adminToken: ADMIN_TOKEN, shopUrl: 'http://127.0.0.1:9' };
    const first = await registerWebhookEndpoint(client, options);
    const second = await registerWebhookEndpoint(client, options);
    expect(second).not.toBe(first);
    const urls = (await shopEndpoints()).map((e) => e.url).sort();
    expect(urls).toEqual([`${shop.url}/webhooks/paydesk`, 'http://127.0.0.1:9/webhooks/paydesk'].sort());
  });

  test('on a port already taken, the shop says so, exits, and registers no endpoint', async () => {
    const before = (await shopEndpoints()).map((e) => e.id);
    const taken = new URL(shop.url).port;
    const second = await startShop({
      PAYDESK_SECRET_KEY: secret,
      PAYDESK_URL: paydesk.baseUrl,
      PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN,
      PORT: taken,
      SHOP_URL: 'http://127.0.0.1:9999',
    });
    const [code] = await second.exited;
    expect(code).toBe(1);
    expect(second.output()).toContain(`The shop cannot listen on 127.0.0.1:${taken}: the port is in use`);
    expect((await shopEndpoints()).map((e) => e.id)).toEqual(before);
  });

  test('without a webhook secret or an admin token, the shop says what to set and exits', async () => {
    const bare = await startShop({ PAYDESK_SECRET_KEY: secret, PAYDESK_URL: paydesk.baseUrl });
    const [code] = await bare.exited;
    expect(code).toBe(1);
    expect(bare.output()).toMatch(/Set PAYDESK_WEBHOOK_SECRET \(whsec_…\), or PAYDESK_ADMIN_TOKEN/);
  });
});

/** The webhook endpoints of the demo project. */
async function shopEndpoints(): Promise<Array<{ id: string; url: string }>> {
  const { project } = await new Paydesk(secret, { baseUrl: paydesk.baseUrl }).me();
  return admin('GET', `/v1/admin/projects/${project.id}/webhook-endpoints`);
}

/** Waits until Paydesk's delivery log shows an event of this type that the shop answered with 2xx. */
async function delivered(type: string) {
  const endpoint = (await shopEndpoints()).find((e) => e.url === `${shop.url}/webhooks/paydesk`);
  await eventually(async () => {
    const log = await admin('GET', `/v1/admin/webhook-endpoints/${endpoint?.id}/deliveries?limit=100`);
    return log.some((a: { type: string; outcome: string }) => a.type === type && a.outcome === 'succeeded');
  });
}
