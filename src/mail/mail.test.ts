import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  admin,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { mailRows, type SmtpServer, setPayer, startSmtpServer } from '../../test/smtp.js';
import { eventually } from '../../test/webhooks.js';

// Contract §25, e-mail, end to end: the real app and its mail worker, a real SMTP server process.

const FROM = 'Test Shop <billing@shop.example>';
const OWNER = 'owner@shop.example';

let smtp: SmtpServer;
let t: TestApp;
let m: Merchant;

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

const to = (address: string) => smtp.received.filter((r) => r.envelopeTo.includes(address));

async function paidInvoice(payer: string, language: string | null) {
  const invoice = (await createInvoice(t.app, m, { amount: '25.00' })).json().data;
  await setPayer(t.database.db, invoice.id, payer, language);
  await admin(t.app, 'POST', `/v1/admin/invoices/${invoice.id}/simulate-payment`, {});
  return invoice.id as string;
}

describe('mail through the outbox', () => {
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
    const mail = await eventually(async () =>
      to('carla@example.com').find((r) => r.text?.includes(claimUrl)),
    );
    expect(mail.subject).toBe('O seu reembolso de Test project: 10.00 USDT');
    expect(mail.html).toContain(`href="${claimUrl}"`);
    await eventually(async () =>
      (await mailRows(t.database.db, invoiceId)).every((r) => r.status === 'sent'),
    );
    const rows = await mailRows(t.database.db, invoiceId);
    expect(rows.map((r) => r.claim_url)).toEqual([null, null, null]);
    // The capability went nowhere else: not to the owner, not into a log line.
    expect(smtp.received.filter((r) => r.text?.includes(claimUrl))).toHaveLength(1);
    expect(t.rawLogs()).not.toContain(claimUrl.slice(-20));
    expect(t.rawLogs()).not.toContain('right-password');
  });
});
