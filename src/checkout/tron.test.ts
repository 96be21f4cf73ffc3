import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { watchedBuiltins } from '../../test/watched-node.js';
import { qrSvg } from '../web/qr.js';
import { addressGroups } from './page.js';

// The payment page of a TRON invoice (contract §14): the QR code holds the bare address, the page
// states the exact amount and that only USDT on TRON counts.
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ env: watchedBuiltins() });
  m = await createMerchant(t.app, {
    name: 'Tea shop',
    network: 'tron',
    currency: 'USDT',
    xpub: TRON_TEST_XPUB,
  });
});
afterAll(() => t?.close());

const newInvoice = async (amount = '10.50') => (await createInvoice(t.app, m, { amount })).json().data;

describe('GET /pay/{id} on TRON', () => {
  test('the QR code is the T-address alone, shown beside it with its copy button', async () => {
    const inv = await newInvoice();
    expect(inv.pay_address).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    const body = (await t.app.inject({ url: `/pay/${inv.id}` })).body;
    const label = `QR code to pay 10.50 USDT to ${inv.pay_address}`;
    expect(body).toContain(qrSvg(inv.pay_address, label).value);
    expect(body).toContain(`<code class="address" id="pay-address">${addressGroups(inv.pay_address)}</code>`);
    expect(body).toContain(
      `<a class="button button-primary button-brand button-wallet" href="tron:${inv.pay_address}">`,
    );
    expect(body).toContain('<figcaption>Scan for the address</figcaption>');
    expect(body).not.toContain('ethereum:');
  });

  test('states the exact amount, that the payer types it, and that only USDT on TRON counts', async () => {
    const body = (await t.app.inject({ url: `/pay/${(await newInvoice('7.25')).id}` })).body;
    expect(body).toContain('Send <strong>7.25 USDT</strong> on the TRON network to the address below.');
    expect(body).toContain(
      'Only USDT on TRON counts: another token, or the same token on another network, does not pay this invoice.',
    );
    expect(body).toContain(
      'Your wallet will not fill in the amount: enter it yourself, exactly <strong>7.25 USDT</strong>.',
    );
    expect(body).toMatch(/<span class="visually-hidden">Network: <\/span>TRON<\/p>/);
    expect(body).not.toContain('Simulate payment');
  });

  test('the public status names the network and the T-address, nothing more', async () => {
    const inv = await newInvoice();
    const status = (await t.app.inject({ url: `/pay/${inv.id}/status` })).json().data;
    expect(status).toMatchObject({
      network: 'tron',
      currency: 'USDT',
      pay_address: inv.pay_address,
      amount: '10.50',
    });
  });
});
