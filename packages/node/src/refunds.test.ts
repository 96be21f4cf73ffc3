import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin } from '../../../test/app.js';
import { type Server, startServer } from '../test/server.js';
import { PaydeskNotFoundError, PaydeskValidationError, type Refund } from './index.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

async function paidInvoice(amount: string) {
  const invoice = await s.client().invoices.create({ amount });
  await admin(s.app, 'POST', `/v1/admin/invoices/${invoice.id}/simulate-payment`, {});
  return invoice.id;
}

describe('refunds', () => {
  test('create() a partial refund, then the rest; list() shows both without their links', async () => {
    const id = await paidInvoice('25.00');
    const first: Refund = await s.client().refunds.create(id, { amount: '10.00', reason: 'returned' });
    expect(first).toMatchObject({
      invoice_id: id,
      amount: '10.00',
      status: 'awaiting_address',
      reason: 'returned',
    });
    expect(first.claim_url).toMatch(/\/refund\/[A-Za-z0-9]{43}$/);
    const rest = await s.client().refunds.create(id);
    expect(rest.amount).toBe('15.00');
    const listed = await s.client().refunds.list(id);
    expect(listed.map((r) => [r.amount, r.claim_url])).toEqual([
      ['10.00', null],
      ['15.00', null],
    ]);
    expect((await s.client().invoices.retrieve(id)).amount_refunded).toBe('25.00');
  });

  test('a refund above what is left is a PaydeskValidationError naming exceeds_paid', async () => {
    const id = await paidInvoice('5.00');
    const err = await s
      .client()
      .refunds.create(id, { amount: '5.01' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(PaydeskValidationError);
    expect(err.errors[0]).toMatchObject({ field: 'amount', rule: 'exceeds_paid' });
  });

  test('newClaimLink() replaces the link; cancel() cancels, and a second cancel names not_cancelable', async () => {
    const id = await paidInvoice('5.00');
    const made = await s.client().refunds.create(id);
    const relinked = await s.client().refunds.newClaimLink(id, made.id);
    expect(relinked.claim_url).toMatch(/\/refund\/[A-Za-z0-9]{43}$/);
    expect(relinked.claim_url).not.toBe(made.claim_url);
    expect(await s.client().refunds.cancel(id, made.id)).toMatchObject({ status: 'canceled' });
    const err = await s
      .client()
      .refunds.cancel(id, made.id)
      .catch((e) => e);
    expect(err).toBeInstanceOf(PaydeskValidationError);
    expect(err.errors[0]).toMatchObject({ rule: 'not_cancelable' });
  });

  test('an unknown invoice is PaydeskNotFoundError', async () => {
    await expect(s.client().refunds.list('inv_000000000000000000000000')).rejects.toBeInstanceOf(
      PaydeskNotFoundError,
    );
  });
});
