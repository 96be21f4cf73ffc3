import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  admin,
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { freePort, mailRows, type SmtpServer, setPayer, smtpUrl, startSmtpServer } from '../../test/smtp.js';
import { eventually } from '../../test/webhooks.js';

// Contract §25, e-mail, end to end: the real app and its mail worker, a real SMTP server process.

const FROM = 'Test Shop <billing@shop.example>';
const OWNER = 'owner@shop.example';

let smtp: SmtpServer;
let t: TestApp;
let m: Merchant;

const to = (address: string) => smtp.received.filter((r) => r.envelopeTo.includes(address));

async function paidInvoice(payer: string, language: string | null) {
  const invoice = (await createInvoice(t.app, m, { amount: '25.00' })).json().data;
  await setPayer(t.database.db, invoice.id, payer, language);
  await admin(t.app, 'POST', `/v1/admin/invoices/${invoice.id}/simulate-payment`, {});
  return invoice.id as string;
}

// Its own app, closed before the next block's, so they take turns with one embedded database.
describe('mail through the outbox', () => {
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({
      env: { SMTP_URL: smtp.url('paydesk:right-password'), PAYDESK_MAIL_FROM: FROM },
      workers: ['mail'],
      mailTuning: { pollIntervalMs: 50 },
    });
    m = await createMerchant(t.app);
    await admin(t.app, 'POST', `/v1/admin/accounts/${m.accountId}/users`, { email: OWNER });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  test('a paid invoice: one receipt to its payer in their language, text and HTML, and a notice to the owner', async () => {
    const invoiceId = await paidInvoice('ana@example.com', 'es');
    const [receipt] = await eventually(
      async () => to('ana@example.com').length === 1 && to('ana@example.com'),
    );
    expect(receipt).toMatchObject({
      user: 'paydesk',
      from: FROM.replace('Test Shop', '"Test Shop"'),
      subject: 'Recibo de Test project: 25.00 USDT',
      autoSubmitted: 'auto-generated',
    });
    expect(receipt?.text).toContain('Test project recibió tu pago de 25.00 USDT.');
    expect(receipt?.text).toContain(invoiceId);
    expect(receipt?.text).toContain('Modo de prueba');
    expect(receipt?.html).toContain('<html lang="es">');
    expect(receipt?.html).toContain('Gracias por tu pago');
    const rows = await mailRows(t.database.db, invoiceId);
    const receiptRow = rows.find((r) => r.kind === 'receipt');
    expect(receipt?.messageId).toBe(`<${receiptRow?.id}@shop.example>`);

    const notice = await eventually(async () => to(OWNER).find((r) => r.text?.includes(invoiceId)));
    // The owner is told in the payer's language too (contract §25: "each in the payer's language").
    expect(notice.subject).toBe(`Factura pagada: 25.00 USDT (${invoiceId})`);
    await eventually(async () =>
      (await mailRows(t.database.db, invoiceId)).every((r) => r.status === 'sent'),
    );
    expect((await mailRows(t.database.db, invoiceId)).map((r) => [r.kind, r.attempts])).toEqual([
      ['owner_paid', 1],
      ['receipt', 1],
    ]);
  });

  test('a payment after close: the owner is told, once per payment; the payer gets no second receipt', async () => {
    const invoiceId = await paidInvoice('bob@example.com', null);
    await eventually(async () => to('bob@example.com').length === 1);
    await admin(t.app, 'POST', `/v1/admin/invoices/${invoiceId}/simulate-payment`, { amount: '3.00' });
    const late = await eventually(async () =>
      to(OWNER).find((r) => r.subject === `Payment after close: 3.00 USDT (${invoiceId})`),
    );
    expect(late.text).toContain('you can refund it from the dashboard');
    await eventually(async () =>
      (await mailRows(t.database.db, invoiceId)).every((r) => r.status === 'sent'),
    );
    expect(to('bob@example.com')).toHaveLength(1);
    expect(to('bob@example.com')[0]?.subject).toBe('Receipt from Test project: 25.00 USDT');
  });

  test('a refund: its claim link goes to the payer alone, and is not kept once sent', async () => {
    const invoiceId = await paidInvoice('carla@example.com', 'pt');
    const made = await t.app.inject({
      method: 'POST',
      url: `/v1/merchant/invoices/${invoiceId}/refunds`,
      headers: m.auth,
      payload: { amount: '10.00' },
    });
    expect(made.statusCode).toBe(201);
    const claimUrl: string = made.json().data.refund.claim_url;
    // While it waits, the link is sealed like every secret at rest: a copy of the database opens nothing.
    const waiting = (await mailRows(t.database.db, invoiceId)).find((r) => r.kind === 'refund_claim');
    expect(waiting?.claim_url ?? 'sealed:v1:').toMatch(/^sealed:v1:/);
    expect(String(waiting?.claim_url)).not.toContain(claimUrl.slice(-43));
    const mail = await eventually(async () =>
      to('carla@example.com').find((r) => r.text?.includes(claimUrl)),
    );
    expect(mail.subject).toBe('O seu reembolso de Test project: 10.00 USDT');
    expect(mail.html).toContain(`href="${claimUrl}"`);
    // All three: the refund's claim (queued by the refund itself) and the paid invoice's receipt and
    // owner notice (queued by the mail fan-out from the outbox, which may come later).
    await eventually(async () => {
      const rows = await mailRows(t.database.db, invoiceId);
      return rows.length === 3 && rows.every((r) => r.status === 'sent');
    });
    const rows = await mailRows(t.database.db, invoiceId);
    expect(rows.map((r) => r.claim_url)).toEqual([null, null, null]);
    // The capability went nowhere else: not to the owner, not into a log line.
    expect(smtp.received.filter((r) => r.text?.includes(claimUrl))).toHaveLength(1);
    expect(t.rawLogs()).not.toContain(claimUrl.slice(-20));
    expect(t.rawLogs()).not.toContain('right-password');
  });
});

// Contract §25: sending is retried, never sent twice, never blocks a request; without SMTP_URL
// nothing is queued and nothing fails. Time is moved by hand, never waited for.

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const MINUTE = 60_000;

async function app(env: Record<string, string>, clock = manualClock()) {
  const t = await startTestApp({ env, clock, workers: ['mail'], mailTuning: { pollIntervalMs: 50 } });
  cleanups.push(() => t.close());
  const m = await createMerchant(t.app);
  const pay = async (email: string) => {
    const invoice = (await createInvoice(t.app, m, { amount: '25.00' })).json().data;
    await setPayer(t.database.db, invoice.id, email, 'tr');
    await admin(t.app, 'POST', `/v1/admin/invoices/${invoice.id}/simulate-payment`, {});
    return invoice.id as string;
  };
  return { t, m, clock, pay };
}

const rowOf = async (t: TestApp, invoiceId: string) => (await mailRows(t.database.db, invoiceId))[0];

describe('mail delivery', () => {
  test('a refused first attempt (451) is retried after its pause, and the payer gets one copy', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    smtp.failNext(1);
    const { t, clock, pay } = await app({ SMTP_URL: smtp.url(), PAYDESK_MAIL_FROM: 'shop@shop.example' });
    const invoiceId = await pay('deniz@example.com');
    const failed = await eventually(async () => {
      const row = await rowOf(t, invoiceId);
      return row?.attempts === 1 && row.status === 'pending' && row;
    });
    expect(failed.last_error).toMatch(/^451/);
    expect(smtp.received).toHaveLength(0);
    // Not before its pause (1 min, ±20 %)…
    clock.advance(30_000);
    t.workers?.wake('mail');
    await new Promise((r) => setTimeout(r, 200));
    expect((await rowOf(t, invoiceId))?.attempts).toBe(1);
    // …and at once after it.
    clock.advance(2 * MINUTE);
    t.workers?.wake('mail');
    await eventually(async () => (await rowOf(t, invoiceId))?.status === 'sent');
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.subject).toBe('Test project makbuzu: 25.00 USDT');
    expect((await rowOf(t, invoiceId))?.attempts).toBe(2);
  });

  test('an SMTP server that is down: the request is not held up, the mail waits and goes once it is back', async () => {
    const port = await freePort();
    const login = 'paydesk:right-password';
    const { t, clock, pay } = await app({
      SMTP_URL: smtpUrl(port, login),
      PAYDESK_MAIL_FROM: 'shop@shop.example',
    });
    const invoiceId = await pay('deniz@example.com');
    const failed = await eventually(async () => {
      const row = await rowOf(t, invoiceId);
      return row?.attempts === 1 && row.status === 'pending' && row;
    });
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    expect(`${failed.last_error} ${t.rawLogs()}`).not.toContain('right-password');
    expect(t.logs.some((l) => l.msg === 'mail not sent' && l.outcome === 'pending')).toBe(true);

    const smtp = await startSmtpServer(port);
    cleanups.push(() => smtp.close());
    clock.advance(2 * MINUTE);
    t.workers?.wake('mail');
    await eventually(async () => (await rowOf(t, invoiceId))?.status === 'sent');
    expect(smtp.received).toHaveLength(1);

    // An instance that died between the server's "accepted" and its own "sent" leaves a lapsed lease:
    // the mail goes again, once, with the same Message-ID for the receiver to drop (docs/email.md).
    await sql`update mail_deliveries set status = 'sending', lease_until = ${clock()} where invoice_id = ${invoiceId}`.execute(
      t.database.db,
    );
    t.workers?.wake('mail');
    await eventually(async () => smtp.received.length === 2);
    expect(smtp.received[1]?.messageId).toBe(smtp.received[0]?.messageId);
    await eventually(async () => (await rowOf(t, invoiceId))?.status === 'sent');
    expect(smtp.received).toHaveLength(2);
  });

  test('without SMTP_URL nothing is queued and nothing fails', async () => {
    const { t, m, pay } = await app({});
    const invoiceId = await pay('deniz@example.com');
    const refund = await t.app.inject({
      method: 'POST',
      url: `/v1/merchant/invoices/${invoiceId}/refunds`,
      headers: m.auth,
      payload: {},
    });
    expect(refund.statusCode).toBe(201);
    expect(await mailRows(t.database.db)).toEqual([]);
    expect(t.workers).toBeDefined();
  });
});
