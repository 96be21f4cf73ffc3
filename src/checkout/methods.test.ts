import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  admin,
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { watchedBuiltins } from '../../test/watched-node.js';
import { observeOne } from '../invoices/observe.js';
import { money } from '../money/money.js';
import { methodLabel, type PaymentMethod } from '../networks/methods.js';
import { paymentRequest } from '../networks/payment-request.js';
import { LANGUAGES } from './i18n/i18n.js';
import { addressGroups } from './page.js';

/** Contract §15 on the payment page: "Pay with", `?method=`, and views that name what was paid. */
const clock = manualClock();
let t: TestApp;
/** USD, paid in USDT on TRON, USDC on Polygon or USDC on Base: live only (contract §21). */
let mixed: Merchant;
/** USD, both sandbox tokens: the Simulate button's choice. */
let sandbox: Merchant;
/** One method, as every project before contract §15. */
let single: Merchant;
const METHODS: PaymentMethod[] = [
  { network: 'tron', currency: 'USDT' },
  { network: 'polygon', currency: 'USDC' },
  { network: 'base', currency: 'USDC' },
];
const SANDBOX_METHODS: PaymentMethod[] = [
  { network: 'sandbox', currency: 'USDT' },
  { network: 'sandbox', currency: 'USDC' },
];
beforeAll(async () => {
  t = await startTestApp({ clock, env: watchedBuiltins() });
  mixed = await createMerchant(t.app, {
    currency: 'USD',
    payment_methods: METHODS,
    evm_xpub: TEST_XPUB,
    tron_xpub: TRON_TEST_XPUB,
    invoice_ttl_seconds: 60,
  });
  sandbox = await createMerchant(t.app, { currency: 'USD', payment_methods: SANDBOX_METHODS });
  single = await createMerchant(t.app);
});
afterAll(() => t.close());

interface Offered {
  network: string;
  currency: string;
  pay_address: string;
}
const newInvoice = async (m: Merchant) =>
  (await createInvoice(t.app, m, { amount: '25.00' })).json().data as {
    id: string;
    pay_address: string | null;
    payment_methods: Offered[];
  };
const page = async (id: string, query = '') => (await t.app.inject({ url: `/pay/${id}${query}` })).body;
const offered = (inv: { payment_methods: Offered[] }, network: string, currency: string) =>
  inv.payment_methods.find((m) => m.network === network && m.currency === currency) as Offered;
/** The radios of "Pay with", as the page writes them. */
const radios = (body: string) =>
  [
    ...body.matchAll(
      /<input type="radio" id="[^"]+" name="method" value="([^"]+)"( checked)?><span>([^<]+)<\/span>/g,
    ),
  ].map(([, value, checked, label]) => ({ value, checked: Boolean(checked), label }));
const report = (id: string, payment: { network: string; currency: string; amount: string }, extra = {}) =>
  observeOne(
    t.app.db,
    id,
    {
      kind: 'payment',
      txHash: `0x${Math.random().toString(16).slice(2).padEnd(64, '0')}`,
      confirmed: true,
      ...payment,
      amount: money(payment.amount),
      ...extra,
    },
    { now: clock(), publicBaseUrl: t.app.config.publicBaseUrl },
  );
const stateOf = (body: string) => /data-state="(\w+)"/.exec(body)?.[1];

describe('"Pay with": one radio per method, in a form that needs no script', () => {
  test('a radio group labelled "Pay with", each radio "{currency} on {network}", the first checked', async () => {
    const inv = await newInvoice(mixed);
    const body = await page(inv.id);
    expect(body).toContain(
      '<fieldset class="methods-group" role="radiogroup" aria-labelledby="methods-legend">\n<legend id="methods-legend" class="field-label">Pay with</legend>',
    );
    expect(radios(body)).toEqual(
      METHODS.map((m, i) => ({
        value: `${m.network}:${m.currency}`,
        checked: i === 0,
        label: methodLabel(t.app.config.networks, m),
      })),
    );
    expect(radios(body).map((r) => r.label)).toEqual(['USDT on TRON', 'USDC on Polygon', 'USDC on Base']);
    // A GET form to the page itself: the choice becomes ?method=…&lang=… with or without the script.
    expect(body).toContain(`<form class="methods" method="get" action="${inv.id}" data-methods>`);
    expect(body).toContain('<input type="hidden" name="lang" value="en">');
    expect(body).toContain(
      '<button type="submit" class="button button-secondary" data-methods-submit>Show payment details</button>',
    );
    // Each radio has its own label element (a click on the words chooses it).
    for (const m of METHODS) {
      const id = `method-${m.network}-${m.currency}`;
      expect(body).toContain(`<label class="method-option" for="${id}"><input type="radio" id="${id}"`);
    }
  });

  test('?method= shows that method: its token amount, address, QR code, wallet link and instruction', async () => {
    const inv = await newInvoice(mixed);
    const polygon = offered(inv, 'polygon', 'USDC');
    const body = await page(inv.id, '?method=polygon:USDC');
    expect(radios(body).find((r) => r.checked)?.value).toBe('polygon:USDC');
    // USD at par: the headline is what to send in the chosen token; the price stays beside its label.
    expect(body).toContain('<p class="summary-label">Amount due · 25.00 USD</p>');
    expect(body).toContain(
      '<span class="amount-value" id="pay-amount">25.00</span> <span class="amount-currency">USDC</span>',
    );
    expect(body).toContain(
      `<code class="address" id="pay-address">${addressGroups(polygon.pay_address)}</code>`,
    );
    const request = paymentRequest({ ...polygon, amount: money('25.00') }, t.app.config.networks);
    expect(request).toMatch(/^ethereum:0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359@137\/transfer\?/);
    expect(body).toContain(`href="${request.replaceAll('&', '&amp;')}"`);
    expect(body).toContain(`aria-label="QR code to pay 25.00 USDC to ${polygon.pay_address}"`);
    expect(body).toContain('Send <strong>25.00 USDC</strong> on the Polygon network to the address below.');
    expect(body).toMatch(
      /<p class="badge network-live"><span class="visually-hidden">Network: <\/span>Polygon<\/p>/,
    );
    expect(body).toMatch(/<title>Pay 25.00 USDC · Test project<\/title>/);
    // The page's own URLs keep the choice: live updates and every language link.
    expect(body).toContain(`data-page-url="${inv.id}?method=polygon:USDC&amp;lang=en"`);
    expect(body).toContain('href="?method=polygon:USDC&amp;lang=es" hreflang="es"');
    // On TRON: the bare address, the `tron:` link, and the amount to type by hand.
    const tron = offered(inv, 'tron', 'USDT');
    const tronPage = await page(inv.id, '?method=tron%3AUSDT'); // as a GET form sends it
    expect(radios(tronPage).find((r) => r.checked)?.value).toBe('tron:USDT');
    expect(tronPage).toContain(`href="tron:${tron.pay_address}"`);
    expect(tronPage).toContain('enter it yourself, exactly <strong>25.00 USDT</strong>');
    expect(tronPage).toContain(`data-page-url="${inv.id}?method=tron:USDT&amp;lang=en"`);
  });

  test('an unknown, malformed or repeated ?method= shows the default method, never an error', async () => {
    const inv = await newInvoice(mixed);
    for (const query of ['?method=bitcoin:BTC', '?method=polygon', '?method=a&method=b', '?method=']) {
      const res = await t.app.inject({ url: `/pay/${inv.id}${query}` });
      expect(res.statusCode, query).toBe(200);
      expect(radios(res.body).find((r) => r.checked)?.value, query).toBe('tron:USDT');
      // A method the invoice does not offer is not repeated in the page's links.
      expect(res.body, query).toContain(`data-page-url="${inv.id}?lang=en"`);
    }
  });

  test('with several methods, only those listed count; the sandbox alone says nothing of it', async () => {
    const body = await page((await newInvoice(mixed)).id);
    expect(body).toContain(
      'Only what is listed under “Pay with” counts: another token, or a listed token sent on a network not listed for it, does not pay this invoice.',
    );
    expect(body).not.toContain('counts: another token, or the same token');
    const onlySandbox = await page((await newInvoice(sandbox)).id);
    expect(radios(onlySandbox)).toHaveLength(2);
    expect(onlySandbox).not.toContain('Only what is listed');
  });

  test('in every language: the legend, each method and the instruction', async () => {
    const inv = await newInvoice(mixed);
    const labels = {
      es: 'USDT en TRON',
      pt: 'USDT na rede TRON',
      ru: 'USDT в сети TRON',
      tr: 'TRON ağında USDT',
      zh: 'TRON 上的 USDT',
    };
    for (const [lang, label] of Object.entries(labels)) {
      const body = await page(inv.id, `?lang=${lang}`);
      const messages = LANGUAGES[lang as keyof typeof LANGUAGES].messages;
      expect(body, lang).toContain(`>${messages['methods.legend']}</legend>`);
      expect(radios(body)[0]?.label, lang).toBe(label);
      expect(body, lang).toContain(`<input type="hidden" name="lang" value="${lang}">`);
      expect(body, lang).toContain(messages['methods.submit']);
    }
  });

  test('one method: no chooser, and the page as it always was', async () => {
    const inv = await newInvoice(single);
    const body = await page(inv.id, '?method=sandbox:USDT');
    expect(body).not.toMatch(/radiogroup|data-methods|Pay with|Only what is listed/);
    expect(body).toContain('<p class="summary-label">Amount due</p>');
    expect(body).toContain(
      '<span class="amount-value" id="pay-amount">25.00</span> <span class="amount-currency">USDT</span>',
    );
    expect(body).toContain(`data-page-url="${inv.id}?method=sandbox:USDT&amp;lang=en"`);
    expect(await page(inv.id)).toContain(`data-page-url="${inv.id}?lang=en"`);
  });
});

describe('each view names the token and network actually used', () => {
  test('detected: the amount seen in its token, its network and explorer; paid: "Paid with"', async () => {
    const inv = await newInvoice(mixed);
    const tx = `0x${'cd'.repeat(32)}`;
    const polygon = { network: 'polygon', currency: 'USDC', amount: '25.00' };
    await report(inv.id, polygon, { txHash: tx, confirmed: false });
    // The chosen method in the URL does not change what was paid.
    const detected = await page(inv.id, '?method=tron:USDT');
    expect(stateOf(detected)).toBe('detected');
    expect(detected).toContain('<dt>Amount seen</dt><dd>25.00 USDC</dd>');
    expect(detected).toContain('<dt>Network</dt><dd>Polygon</dd>');
    expect(detected).toContain(`href="https://polygonscan.com/tx/${tx}"`);
    expect(detected).toContain('<span class="visually-hidden">Network: </span>Polygon</p>');
    expect(detected).not.toContain('radiogroup');
    await report(inv.id, polygon, { txHash: tx });
    const paid = await page(inv.id);
    expect(stateOf(paid)).toBe('paid');
    // The headline is the invoice's amount in its currency; the row says in what it was paid.
    expect(paid).toContain(
      '<span class="amount-value" id="pay-amount">25.00</span> <span class="amount-currency">USD</span>',
    );
    expect(paid).toContain('<dt>Paid with</dt><dd>25.00 USDC on Polygon</dd>');
    expect(paid).not.toContain('<dt>Network</dt>');
  });

  test('part-paid: what arrived, by token and network; the method in use is the one shown', async () => {
    const inv = await newInvoice(mixed);
    await report(inv.id, { network: 'tron', currency: 'USDT', amount: '10.00' });
    clock.advance(1000); // payments are listed in the order they were seen
    await report(inv.id, { network: 'base', currency: 'USDC', amount: '5.00' });
    const body = await page(inv.id);
    expect(stateOf(body)).toBe('waiting');
    expect(body).toContain('<p class="summary-label">Remaining to pay · 10.00 USD</p>');
    expect(body).toContain(
      'Invoice total 25.00 USD, of which 10.00 USDT on TRON, 5.00 USDC on Base received',
    );
    expect(radios(body).find((r) => r.checked)?.value).toBe('tron:USDT');
    // The rest may be sent another way.
    const polygon = await page(inv.id, '?method=polygon:USDC');
    expect(polygon).toContain('Send <strong>10.00 USDC</strong> on the Polygon network');
  });

  test('failed, underpaid: received and missing in the invoice currency, and what was paid with', async () => {
    const inv = await newInvoice(mixed);
    await report(inv.id, { network: 'tron', currency: 'USDT', amount: '10.00' });
    clock.advance(61_000);
    const body = await page(inv.id);
    expect(stateOf(body)).toBe('failed');
    expect(body).toContain('<dt>Received</dt><dd>10.00 USD</dd>');
    expect(body).toContain('<dt>Missing</dt><dd>15.00 USD</dd>');
    expect(body).toContain('<dt>Paid with</dt><dd>10.00 USDT on TRON</dd>');
    expect(body).toContain('<span class="visually-hidden">Network: </span>TRON</p>');
  });

  test('failed, reversed: the reversed payment by token and network', async () => {
    const inv = await newInvoice(sandbox);
    const paid = await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {
      amount: '5.00',
      currency: 'USDC',
    });
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-reversal`, { tx_hash: paid.tx_hash });
    const body = await page(inv.id);
    expect(stateOf(body)).toBe('failed');
    expect(body).toContain('Payment reversed');
    expect(body).toContain('<dt>Reversed</dt><dd>5.00 USDC on Sandbox</dd>');
  });

  test('expired with no payment says nothing new: no payment rows, and no badge for several networks', async () => {
    const inv = await newInvoice(mixed);
    clock.advance(61_000);
    const body = await page(inv.id, '?method=polygon:USDC');
    expect(stateOf(body)).toBe('expired');
    expect(body).not.toMatch(/Paid with|class="badge|radiogroup|Polygon/);
    // One network (both sandbox tokens): its badge, as before.
    const one = await newInvoice(sandbox);
    clock.advance(3_600_001);
    expect(await page(one.id)).toContain('<span class="visually-hidden">Network: </span>Sandbox</p>');
  });

  test('a payment the invoice does not accept is said, in every view', async () => {
    const inv = await newInvoice(mixed);
    await report(inv.id, { network: 'ethereum', currency: 'USDT', amount: '25.00' }, { accepted: false });
    const body = await page(inv.id);
    expect(stateOf(body)).toBe('waiting');
    expect(body).toContain(
      '<p class="unaccepted">Received but not counted: 25.00 USDT on Ethereum. This invoice does not accept that token on that network; contact Test project to get it back.</p>',
    );
    expect(body).toContain('<span class="amount-value" id="pay-amount">25.00</span>');
  });
});

describe('"Simulate payment" pays in the chosen sandbox token', () => {
  const submit = (url: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: '',
    });
  const payments = async (m: Merchant, id: string) =>
    (await t.app.inject({ url: `/v1/merchant/invoices/${id}`, headers: m.auth })).json().data.payments;

  test('the form carries ?method=, the payment is in that token, and the page comes back to it', async () => {
    const inv = await newInvoice(sandbox);
    const body = await page(inv.id, '?method=sandbox:USDC');
    const action = /<form method="post" action="([^"]+)" data-simulate>/.exec(body)?.[1];
    expect(action).toBe(`${inv.id}/simulate?method=sandbox:USDC&amp;lang=en`);
    const res = await submit(`/pay/${inv.id}/simulate?method=sandbox:USDC&lang=en`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`../${inv.id}?method=sandbox:USDC&lang=en`);
    expect(await payments(sandbox, inv.id)).toMatchObject([
      { network: 'sandbox', currency: 'USDC', amount: '25.00', status: 'confirmed' },
    ]);
    expect(await page(inv.id, '?method=sandbox:USDC')).toContain(
      '<dt>Paid with</dt><dd>25.00 USDC on Sandbox</dd>',
    );
  });

  test('without a choice, the method shown (the first) pays; off the sandbox there is no button', async () => {
    const inv = await newInvoice(sandbox);
    expect((await submit(`/pay/${inv.id}/simulate`)).headers.location).toBe(`../${inv.id}`);
    expect(await payments(sandbox, inv.id)).toMatchObject([{ currency: 'USDT' }]);
    const chain = await newInvoice(mixed);
    expect(await page(chain.id, '?method=polygon:USDC')).not.toContain('Simulate payment');
    expect((await submit(`/pay/${chain.id}/simulate?method=polygon:USDC`)).statusCode).toBe(404);
    // A live invoice has no sandbox method to choose, and so no button (contract §21).
    expect(await page(chain.id, '?method=sandbox:USDT')).not.toContain('Simulate payment');
    expect((await submit(`/pay/${chain.id}/simulate?method=sandbox:USDT`)).statusCode).toBe(404);
  });
});
