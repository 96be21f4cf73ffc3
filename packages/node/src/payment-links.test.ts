import { afterAll, beforeAll, expect, test } from 'vitest';
import { pressPay } from '../../../test/links.js';
import { type Server, startServer } from '../test/server.js';
import { PaydeskValidationError } from './index.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

test('create, retrieve, update, list a link, and list the invoice a payer made on it', async () => {
  const links = s.client().paymentLinks;
  const link = await links.create({ title: 'Logo design', amount: '25.00', max_uses: 1 });
  expect(link).toMatchObject({ id: expect.stringMatching(/^plink_/), amount: '25.00', active: true });
  expect((await links.retrieve(link.id)).url).toBe(link.url);
  expect((await pressPay(s.app, link.id)).statusCode).toBe(303);
  const invoices = await links.listInvoices(link.id);
  expect(invoices.data.map((i) => i.payment_link_id)).toEqual([link.id]);
  expect((await links.update(link.id, { active: false })).active).toBe(false);
  expect((await links.list({ limit: 5 })).data[0]?.id).toBe(link.id);
  const err = await links.create({ title: 'x', amount: '5', min_amount: '1' }).catch((e) => e);
  expect(err).toBeInstanceOf(PaydeskValidationError);
});
