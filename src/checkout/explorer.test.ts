import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { watchedBuiltins } from '../../test/watched-node.js';
import { observeOne } from '../invoices/observe.js';
import { money } from '../money/money.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ env: watchedBuiltins() });
  m = await createMerchant(t.app, { network: 'polygon', currency: 'USDC', xpub: TEST_XPUB });
});
afterAll(() => t.close());

const TX = `0x${'ab'.repeat(32)}`;

/** A payment reported as a chain watcher reports it: through observe(), the lifecycle's one door. */
const report = (id: string, amount: string, confirmed: boolean) =>
  observeOne(
    t.app.db,
    id,
    { kind: 'payment', network: 'polygon', currency: 'USDC', txHash: TX, amount: money(amount), confirmed },
    { now: t.app.clock(), publicBaseUrl: t.app.config.publicBaseUrl },
  );

describe('the transaction on a chain network', () => {
  test('detected: the amount seen and the transaction with its Polygonscan link; paid: the same link', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '10.50' })).json().data;
    await report(inv.id, '10.5', false);
    const detected = (await t.app.inject({ url: `/pay/${inv.id}` })).body;
    expect(detected).toContain('data-state="detected"');
    expect(detected).toContain('<dt>Amount seen</dt><dd>10.50 USDC</dd>');
    expect(detected).toContain(
      `<code class="hash">${TX}</code> <a class="explorer" href="https://polygonscan.com/tx/${TX}" rel="noreferrer" target="_blank">View the transaction on the block explorer</a>`,
    );
    expect(detected).not.toMatch(/Simulate payment|Open in wallet|class="qr"/);
    await report(inv.id, '10.5', true);
    const paid = (await t.app.inject({ url: `/pay/${inv.id}?lang=zh` })).body;
    expect(paid).toContain('data-state="paid"');
    expect(paid).toContain(`href="https://polygonscan.com/tx/${TX}"`);
    expect(paid).toContain('在区块浏览器中查看交易');
    // Still nothing of it in the public status JSON (contract §12).
    const status = await t.app.inject({ url: `/pay/${inv.id}/status` });
    expect(status.body).not.toContain(TX);
  });
});
