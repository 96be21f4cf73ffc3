import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../test/app.js';
import { TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { merchantWithOwner } from '../../test/dashboard.js';

/**
 * Issue 21: one definition of each field's rules. The same bad values, sent through the admin API and
 * through the dashboard's forms, break the same rules, by name (the dashboard's pages carry each
 * rule's name in data-rule), and change nothing.
 */
let t: TestApp;
let projectId: string;
let owner: Awaited<ReturnType<typeof merchantWithOwner>>['owner'];
let auth: Record<string, string>;
/** A paid invoice of the project, for the refund cases. */
let paidInvoice: string;
beforeAll(async () => {
  t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const made = await merchantWithOwner(t.app, 'rules@shop.example');
  projectId = made.m.projectId;
  auth = made.m.auth;
  owner = made.owner;
  const invoice = await t.app.inject({
    method: 'POST',
    url: '/v1/merchant/invoices',
    headers: auth,
    payload: { amount: '10.00' },
  });
  paidInvoice = invoice.json().data.id;
  await t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${paidInvoice}/simulate-payment`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {},
  });
});
afterAll(() => t.close());

const SETTINGS = {
  name: 'Shop',
  ttl_minutes: '60',
  currency: 'USDT',
  payment_methods: 'sandbox:USDT',
  underpayment_tolerance_percent: '0',
  evm_xpub: '',
  tron_xpub: '',
  intent: 'save',
};
const project = () => `/v1/admin/projects/${projectId}`;

/** A payment settings case: the same change as the admin API's body and as the Settings form. */
function payment(
  what: string,
  api: Record<string, unknown>,
  form: Record<string, string | string[]>,
  rules: string[],
): Case {
  return {
    what,
    api: { method: 'PATCH', url: project, body: api },
    form: { url: '/dashboard/settings', body: { ...SETTINGS, ...form } },
    rules,
  };
}

interface Case {
  what: string;
  /** Through the admin API, or (`merchant`) the merchant API with the project's key. */
  api: { method: 'POST' | 'PATCH'; url: () => string; body: Record<string, unknown>; merchant?: boolean };
  form: { url: string | (() => string); body: Record<string, string | string[]> };
  rules: string[];
}

/** A refund case (contract §22): the same reason through the merchant API and the "Refund" form. */
function refund(what: string, reason: string, rules: string[]): Case {
  return {
    what,
    api: {
      method: 'POST',
      url: () => `/v1/merchant/invoices/${paidInvoice}/refunds`,
      body: { reason },
      merchant: true,
    },
    form: { url: () => `/dashboard/invoices/${paidInvoice}/refunds`, body: { amount: '', reason } },
    rules,
  };
}

const CASES: Case[] = [
  {
    what: 'a project name of three spaces',
    api: { method: 'PATCH', url: () => `/v1/admin/projects/${projectId}`, body: { name: '   ' } },
    form: { url: '/dashboard/settings', body: { ...SETTINGS, name: '   ' } },
    rules: ['blank'],
  },
  {
    what: 'a project name with a control character',
    api: { method: 'PATCH', url: () => `/v1/admin/projects/${projectId}`, body: { name: 'Sh\u0007op' } },
    form: { url: '/dashboard/settings', body: { ...SETTINGS, name: 'Sh\u0007op' } },
    rules: ['control_characters'],
  },
  {
    what: 'a project name of 101 characters',
    api: { method: 'PATCH', url: () => `/v1/admin/projects/${projectId}`, body: { name: 'x'.repeat(101) } },
    form: { url: '/dashboard/settings', body: { ...SETTINGS, name: 'x'.repeat(101) } },
    rules: ['max_length'],
  },
  {
    what: 'an invoice lifetime under a minute',
    api: { method: 'PATCH', url: () => `/v1/admin/projects/${projectId}`, body: { invoice_ttl_seconds: 0 } },
    form: { url: '/dashboard/settings', body: { ...SETTINGS, ttl_minutes: '0' } },
    rules: ['minimum'],
  },
  {
    what: 'an invoice lifetime over 7 days',
    api: {
      method: 'PATCH',
      url: () => `/v1/admin/projects/${projectId}`,
      body: { invoice_ttl_seconds: 7 * 86_400 + 60 },
    },
    form: { url: '/dashboard/settings', body: { ...SETTINGS, ttl_minutes: String(7 * 1440 + 1) } },
    rules: ['maximum'],
  },
  {
    what: 'a currency we do not take',
    api: { method: 'PATCH', url: () => `/v1/admin/projects/${projectId}`, body: { currency: 'XYZ' } },
    form: { url: '/dashboard/settings', body: { ...SETTINGS, currency: 'XYZ' } },
    rules: ['enum'],
  },
  payment('no payment method', { payment_methods: [] }, { payment_methods: [] }, ['min_items']),
  payment(
    'more than 30 payment methods',
    { payment_methods: Array.from({ length: 31 }, () => ({ network: 'sandbox', currency: 'USDT' })) },
    { payment_methods: Array.from({ length: 31 }, () => 'sandbox:USDT') },
    ['max_items'],
  ),
  payment(
    'a payment method listed twice',
    {
      payment_methods: [
        { network: 'sandbox', currency: 'USDC' },
        { network: 'sandbox', currency: 'USDC' },
      ],
      currency: 'USD',
    },
    { payment_methods: ['sandbox:USDC', 'sandbox:USDC'], currency: 'USD' },
    ['duplicate'],
  ),
  payment(
    'a payment method on a network nobody knows',
    { payment_methods: [{ network: 'nowhere', currency: 'USDT' }] },
    { payment_methods: 'nowhere:USDT' },
    ['enum'],
  ),
  payment(
    'a token the network does not offer (USDC on TRON)',
    { payment_methods: [{ network: 'tron', currency: 'USDC' }], currency: 'USDC', tron_xpub: TRON_TEST_XPUB },
    { payment_methods: 'tron:USDC', currency: 'USDC', tron_xpub: TRON_TEST_XPUB },
    ['unsupported'],
  ),
  payment(
    'a token the invoice currency is not paid in',
    { payment_methods: [{ network: 'sandbox', currency: 'USDC' }], currency: 'USDT' },
    { payment_methods: 'sandbox:USDC', currency: 'USDT' },
    ['not_payable'],
  ),
  payment(
    'EVM and TRON methods without their keys',
    {
      payment_methods: [
        { network: 'polygon', currency: 'USDC' },
        { network: 'tron', currency: 'USDT' },
      ],
      currency: 'USD',
    },
    { payment_methods: ['polygon:USDC', 'tron:USDT'], currency: 'USD' },
    ['required', 'required'],
  ),
  payment(
    'an EVM key that is not an xpub',
    { payment_methods: [{ network: 'polygon', currency: 'USDT' }], evm_xpub: 'xpub-nonsense' },
    { payment_methods: 'polygon:USDT', evm_xpub: 'xpub-nonsense' },
    ['format'],
  ),
  payment(
    'a TRON key for a project without a TRON method',
    { tron_xpub: TRON_TEST_XPUB },
    { tron_xpub: TRON_TEST_XPUB },
    ['not_allowed'],
  ),
  payment(
    'the same key for EVM and TRON',
    {
      payment_methods: [
        { network: 'polygon', currency: 'USDT' },
        { network: 'tron', currency: 'USDT' },
      ],
      evm_xpub: TRON_TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
    },
    { payment_methods: ['polygon:USDT', 'tron:USDT'], evm_xpub: TRON_TEST_XPUB, tron_xpub: TRON_TEST_XPUB },
    ['same_key'],
  ),
  payment(
    'a payout address without its EIP-55 checksum',
    {
      payment_methods: [{ network: 'polygon', currency: 'USDT' }],
      payout_address: '0x52908400098527886e0f7030069857d2e4169ee7',
    },
    { payment_methods: 'polygon:USDT', payout_address: '0x52908400098527886e0f7030069857d2e4169ee7' },
    ['checksum'],
  ),
  payment(
    'a payout address that is not an address',
    { payment_methods: [{ network: 'polygon', currency: 'USDT' }], payout_address: '0x1234' },
    { payment_methods: 'polygon:USDT', payout_address: '0x1234' },
    ['pattern'],
  ),
  payment(
    'the zero address as payout',
    { payment_methods: [{ network: 'polygon', currency: 'USDT' }], payout_address: `0x${'0'.repeat(40)}` },
    { payment_methods: 'polygon:USDT', payout_address: `0x${'0'.repeat(40)}` },
    ['zero_address'],
  ),
  // Contract §21: live and test never mix, the sandbox or a testnet beside a live network.
  payment(
    'the sandbox beside a live network',
    {
      payment_methods: [
        { network: 'tron', currency: 'USDT' },
        { network: 'sandbox', currency: 'USDT' },
      ],
      tron_xpub: TRON_TEST_XPUB,
    },
    { payment_methods: ['tron:USDT', 'sandbox:USDT'], tron_xpub: TRON_TEST_XPUB },
    ['mixed_environments'],
  ),
  payment(
    'a testnet beside its mainnet',
    {
      payment_methods: [
        { network: 'tron', currency: 'USDT' },
        { network: 'tron-nile', currency: 'USDT' },
      ],
      tron_xpub: TRON_TEST_XPUB,
    },
    { payment_methods: ['tron:USDT', 'tron-nile:USDT'], tron_xpub: TRON_TEST_XPUB },
    ['mixed_environments'],
  ),
  payment(
    'a payout address for a project without an EVM method',
    { payout_address: '0x52908400098527886E0F7030069857D2E4169EE7' },
    { payout_address: '0x52908400098527886E0F7030069857D2E4169EE7' },
    ['not_allowed'],
  ),
  payment(
    'an underpayment tolerance over 50 %',
    { underpayment_tolerance_percent: 50.01 },
    { underpayment_tolerance_percent: '50.01' },
    ['maximum'],
  ),
  payment(
    'a negative underpayment tolerance',
    { underpayment_tolerance_percent: -1 },
    { underpayment_tolerance_percent: '-1' },
    ['minimum'],
  ),
  payment(
    'an underpayment tolerance of three decimals',
    { underpayment_tolerance_percent: 1.234 },
    { underpayment_tolerance_percent: '1.234' },
    ['multiple_of'],
  ),
  payment(
    'an underpayment tolerance that is not a number',
    { underpayment_tolerance_percent: 'lots' },
    { underpayment_tolerance_percent: 'lots' },
    ['type'],
  ),
  {
    what: 'a key name with a control character',
    api: { method: 'POST', url: () => `/v1/admin/projects/${projectId}/api-keys`, body: { name: 'k\u0001' } },
    form: { url: '/dashboard/api-keys', body: { name: 'k\u0001' } },
    rules: ['control_characters'],
  },
  {
    what: 'a key name of 101 characters',
    api: {
      method: 'POST',
      url: () => `/v1/admin/projects/${projectId}/api-keys`,
      body: { name: 'k'.repeat(101) },
    },
    form: { url: '/dashboard/api-keys', body: { name: 'k'.repeat(101) } },
    rules: ['max_length'],
  },
  {
    what: 'an unknown event type',
    api: {
      method: 'POST',
      url: () => `/v1/admin/projects/${projectId}/webhook-endpoints`,
      body: { url: 'http://127.0.0.1:9/x', events: ['invoice.nope'] },
    },
    form: { url: '/dashboard/webhooks', body: { url: 'http://127.0.0.1:9/x', events: ['invoice.nope'] } },
    rules: ['enum'],
  },
  {
    what: 'a webhook URL that is not one',
    api: {
      method: 'POST',
      url: () => `/v1/admin/projects/${projectId}/webhook-endpoints`,
      body: { url: 'not a url' },
    },
    form: { url: '/dashboard/webhooks', body: { url: 'not a url' } },
    rules: ['format'],
  },
  refund('a refund reason of 501 characters', 'r'.repeat(501), ['max_length']),
  refund('a refund reason with a control character', 'Order\u0007 returned', ['control_characters']),
  refund('a refund reason with a line break inside', 'Order\nreturned', ['control_characters']),
];

describe('the same bad input breaks the same rules through the admin API and the dashboard', () => {
  test.each(CASES)('$what', async ({ api, form, rules }) => {
    const before = await state();
    const viaApi = await t.app.inject({
      method: api.method,
      url: api.url(),
      headers: api.merchant ? auth : { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: api.body,
    });
    expect(viaApi.statusCode, viaApi.body).toBe(422);
    const apiRules = viaApi.json().error.details.errors.map((e: { rule: string }) => e.rule);
    const viaDashboard = await owner.post(typeof form.url === 'string' ? form.url : form.url(), form.body);
    expect(viaDashboard.statusCode, viaDashboard.body.slice(0, 500)).toBe(422);
    const pageRules = [...viaDashboard.body.matchAll(/data-rule="([a-z_]+)"/g)].map((m) => m[1]);
    expect(apiRules).toEqual(rules);
    expect(pageRules).toEqual(rules);
    expect(await state()).toEqual(before);
  });
});

/** What a refused change must leave alone: the project, its keys, its endpoints and its refunds. */
async function state() {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const hooks = await t.app.inject({ url: `/v1/admin/projects/${projectId}/webhook-endpoints`, headers });
  const settings = await owner.get('/dashboard/settings');
  const keys = await owner.get('/dashboard/api-keys');
  const { project } = (await t.app.inject({ url: '/v1/merchant/me', headers: auth })).json().data;
  return {
    project,
    endpoints: hooks.json().data.length,
    name: /id="name"[^>]*value="([^"]*)"/.exec(settings.body)?.[1],
    keys: (keys.body.match(/\/revoke"/g) ?? []).length,
    refunds: (
      await t.app.inject({ url: `/v1/merchant/invoices/${paidInvoice}/refunds`, headers: auth })
    ).json().data.length,
  };
}
