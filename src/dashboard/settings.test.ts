import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, admin, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { type DashboardUser, merchantWithOwner } from '../../test/dashboard.js';
import { watchedBuiltins } from '../../test/watched-node.js';

/**
 * Settings through the real app (contract §13, §15, §17): what the form shows, what a save changes
 * through merchants.updateProject (the admin API's function), and what it refuses.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: watchedBuiltins() });
});
afterAll(() => t.close());

/** The form as a browser would send it unchanged: every field of the page, as rendered. */
function formOn(html: string): Record<string, string | string[]> {
  const value = (name: string) =>
    new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
  const text = (name: string) => new RegExp(`name="${name}"[^>]*>([^<]*)</textarea>`).exec(html)?.[1] ?? '';
  const selected = /<select id="currency"[\s\S]*?<option value="([A-Z]+)" selected>/.exec(html)?.[1] ?? '';
  return {
    name: value('name'),
    ttl_minutes: value('ttl_minutes'),
    currency: selected,
    payment_methods: [...html.matchAll(/name="payment_methods" value="([^"]+)" checked>/g)].map(
      (m) => m[1] as string,
    ),
    underpayment_tolerance_percent: value('underpayment_tolerance_percent'),
    evm_xpub: text('evm_xpub'),
    tron_xpub: text('tron_xpub'),
  };
}

async function save(owner: DashboardUser, changes: Record<string, string | string[]>) {
  const page = await owner.get('/dashboard/settings');
  return owner.post('/dashboard/settings', { ...formOn(page.body), ...changes, intent: 'save' });
}

async function project(m: Merchant) {
  const me = await t.app.inject({ url: '/v1/merchant/me', headers: m.auth });
  return me.json().data.project;
}

const labels = (html: string) =>
  [
    ...html.matchAll(
      /<label class="check"><input type="checkbox" name="payment_methods" value="([^"]+)"[^>]*> ([^<]+)<\/label>/g,
    ),
  ].map((m) => [m[1], m[2]]);

describe('Settings shows the payment settings', () => {
  test('a checkbox "{currency} on {network}" for every token of every network, and the sandbox', async () => {
    const { owner } = await merchantWithOwner(t.app, 'labels@shop.example');
    const page = await owner.get('/dashboard/settings');
    const shown = labels(page.body);
    const expected = [
      ['sandbox:USDT', 'USDT on Sandbox'],
      ['sandbox:USDC', 'USDC on Sandbox'],
      ...t.app.config.networks
        .all()
        .flatMap((n) =>
          (['USDT', 'USDC'] as const)
            .filter((c) => n.tokens[c])
            .map((c) => [`${n.name}:${c}`, `${c} on ${n.label}`]),
        ),
    ];
    expect(shown).toEqual(expected);
    expect(shown).toContainEqual(['tron:USDT', 'USDT on TRON']);
    expect(shown).toContainEqual(['polygon:USDC', 'USDC on Polygon']);
    expect(shown).toContainEqual(['base:USDC', 'USDC on Base']);
    expect(shown).not.toContainEqual(['tron:USDC', 'USDC on TRON']);
    // A new project accepts USDT on the sandbox.
    expect(formOn(page.body)).toMatchObject({ currency: 'USDT', payment_methods: ['sandbox:USDT'] });
    expect(page.body).toContain('<label for="currency">Invoice currency</label>');
    expect(page.body).toMatch(
      /<option value="USD">USD<\/option><option value="USDT" selected>USDT<\/option><option value="USDC">USDC<\/option>/,
    );
    expect(page.body).toContain('<label for="tolerance">Underpayment tolerance (%)</label>');
    expect(page.body).toContain('<label for="evm-xpub">EVM xpub</label>');
    expect(page.body).toContain('<label for="tron-xpub">TRON xpub</label>');
  });
});

describe('Settings saves the payment settings through the admin API’s rules', () => {
  test('USD accepted as USDT on TRON and USDC on Polygon and Base, with a tolerance', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'methods@shop.example');
    const res = await save(owner, {
      currency: 'USD',
      payment_methods: ['tron:USDT', 'polygon:USDC', 'base:USDC'],
      underpayment_tolerance_percent: '1.5',
      evm_xpub: TEST_XPUB,
      tron_xpub: ` ${TRON_TEST_XPUB}\n`,
    });
    expect(res.statusCode, res.body.slice(0, 400)).toBe(303);
    expect(res.headers.location).toBe('/dashboard/settings?saved=1');
    expect(await project(m)).toMatchObject({
      currency: 'USD',
      network: 'tron',
      payment_methods: [
        { network: 'tron', currency: 'USDT' },
        { network: 'polygon', currency: 'USDC' },
        { network: 'base', currency: 'USDC' },
      ],
      evm_xpub: TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
      underpayment_tolerance_percent: 1.5,
    });
    const page = await owner.follow(res);
    expect(page.body).toContain('Settings saved.');
    expect(formOn(page.body)).toMatchObject({
      currency: 'USD',
      payment_methods: ['polygon:USDC', 'base:USDC', 'tron:USDT'],
      underpayment_tolerance_percent: '1.5',
    });
    // The saved keys' first addresses, one list per family.
    expect(page.body.match(/<li><code>0x[0-9a-fA-F]{40}<\/code><\/li>/g)).toHaveLength(3);
    expect(page.body.match(/<li><code>T[1-9A-HJ-NP-Za-km-z]{33}<\/code><\/li>/g)).toHaveLength(3);
    // Audited in the change's transaction, by the signed-in user; never the keys themselves.
    const team = await owner.get('/dashboard/team');
    expect(team.body).toContain('project.settings_changed');
    expect(team.body).toContain('evm_xpub set');
    expect(team.body).not.toContain(TEST_XPUB);
    // An invoice now offers every method.
    const invoice = await t.app.inject({
      method: 'POST',
      url: '/v1/merchant/invoices',
      headers: m.auth,
      payload: { amount: '25.00' },
    });
    expect(invoice.json().data).toMatchObject({ currency: 'USD', network: null, pay_address: null });
    expect(invoice.json().data.payment_methods.map((x: { network: string }) => x.network)).toEqual([
      'tron',
      'polygon',
      'base',
    ]);
  });

  test('the order the project offers its methods in is kept; newly ticked ones follow', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'order@shop.example', {
      currency: 'USD',
      payment_methods: [
        { network: 'tron', currency: 'USDT' },
        { network: 'polygon', currency: 'USDC' },
      ],
      evm_xpub: TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
    });
    // The page lists the checkboxes in the registry's order (polygon before tron) …
    const res = await save(owner, { payment_methods: ['polygon:USDC', 'base:USDC', 'tron:USDT'] });
    expect(res.statusCode, res.body.slice(0, 400)).toBe(303);
    // … but a save keeps the project's: `network` still reads as TRON.
    const p = await project(m);
    expect(p.network).toBe('tron');
    expect(p.payment_methods).toEqual([
      { network: 'tron', currency: 'USDT' },
      { network: 'polygon', currency: 'USDC' },
      { network: 'base', currency: 'USDC' },
    ]);
  });

  test('unticking the last TRON method keeps the TRON key, as the admin API does when it is not sent', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'untick@shop.example', {
      currency: 'USD',
      payment_methods: [
        { network: 'tron', currency: 'USDT' },
        { network: 'polygon', currency: 'USDC' },
      ],
      evm_xpub: TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
    });
    const res = await save(owner, { payment_methods: ['polygon:USDC'] });
    expect(res.statusCode, res.body.slice(0, 400)).toBe(303);
    expect(await project(m)).toMatchObject({
      network: 'polygon',
      payment_methods: [{ network: 'polygon', currency: 'USDC' }],
      tron_xpub: TRON_TEST_XPUB,
    });
    // Emptying the field removes it.
    expect((await save(owner, { tron_xpub: '' })).statusCode).toBe(303);
    expect((await project(m)).tron_xpub).toBeNull();
  });

  test('an empty tolerance is 0; a project of one network changes its name without touching the rest', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'tolerance@shop.example');
    await admin(t.app, 'PATCH', `/v1/admin/projects/${m.projectId}`, { underpayment_tolerance_percent: 2 });
    expect((await save(owner, { name: 'Renamed' })).statusCode).toBe(303);
    expect(await project(m)).toMatchObject({
      name: 'Renamed',
      network: 'sandbox',
      currency: 'USDT',
      payment_methods: [{ network: 'sandbox', currency: 'USDT' }],
      underpayment_tolerance_percent: 2,
      xpub: null,
    });
    expect((await save(owner, { underpayment_tolerance_percent: ' ' })).statusCode).toBe(303);
    expect((await project(m)).underpayment_tolerance_percent).toBe(0);
  });

  test('refuses what the rules refuse, says it in the form’s words, keeps what was typed, changes nothing', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'refused@shop.example');
    const before = await project(m);
    const res = await save(owner, {
      currency: 'USDT',
      payment_methods: ['polygon:USDC', 'tron:USDT'],
      underpayment_tolerance_percent: 'lots',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain(
      'The underpayment tolerance must be a number from 0 to 50, with at most two decimals',
    );
    const again = await save(owner, { currency: 'USDT', payment_methods: ['polygon:USDC', 'tron:USDT'] });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('USDC on Polygon: an invoice in USDT cannot be paid in USDC');
    expect(again.body).toMatch(/data-rule="required">EVM payment methods need the extended public key/);
    // Other fields a message names are said by their labels, never as the API spells them.
    expect(again.body).toContain('the extended public key (EVM xpub) of the wallet');
    expect(again.body).toContain('or a payout address to collect them to');
    expect(again.body).not.toMatch(/data-rule="[a-z_]+">[^<]*\b(evm_xpub|tron_xpub|payout_address)\b/);
    expect(again.body).toMatch(/data-rule="required">TRON payment methods need the extended public key/);
    expect(again.body).toContain('Needed when an EVM method is ticked.');
    // The form comes back as it was sent.
    expect(formOn(again.body)).toMatchObject({ payment_methods: ['polygon:USDC', 'tron:USDT'] });
    expect(await project(m)).toEqual(before);
  });
});

test('a key sent for a project without its methods is refused in good English', async () => {
  const { m } = await merchantWithOwner(t.app, 'grammar@shop.example');
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/v1/admin/projects/${m.projectId}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { evm_xpub: TEST_XPUB },
  });
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe('evm_xpub is only for projects that accept an EVM method');
});

describe('choosing EUR keeps the tokens the project takes', () => {
  const sandboxUsdt = [{ network: 'sandbox', currency: 'USDT' }];

  test('in Settings', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'eur-form@shop.example');
    expect((await project(m)).payment_methods).toMatchObject(sandboxUsdt);
    const res = await save(owner, { currency: 'EUR' });
    expect(res.statusCode, res.body).toBe(303);
    expect(await project(m)).toMatchObject({ currency: 'EUR', payment_methods: sandboxUsdt });
    expect((await project(m)).payment_methods).toHaveLength(1);
  });

  test('through the admin API, sending the currency alone', async () => {
    const { m } = await merchantWithOwner(t.app, 'eur-api@shop.example');
    await admin(t.app, 'PATCH', `/v1/admin/projects/${m.projectId}`, { currency: 'EUR' });
    expect((await project(m)).payment_methods).toEqual(sandboxUsdt.map((x) => expect.objectContaining(x)));
  });

  test('a token the new currency cannot take is replaced by the network’s one that can', async () => {
    const { m } = await merchantWithOwner(t.app, 'usdc@shop.example');
    await admin(t.app, 'PATCH', `/v1/admin/projects/${m.projectId}`, { currency: 'USDC' });
    expect((await project(m)).payment_methods).toEqual([
      expect.objectContaining({ network: 'sandbox', currency: 'USDC' }),
    ]);
  });
});

describe('Preview addresses', () => {
  test('the first three TRON addresses of a TRON xpub, then a save', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'preview-tron@shop.example');
    const form = { payment_methods: 'tron:USDT', tron_xpub: TRON_TEST_XPUB };
    const page = await owner.get('/dashboard/settings');
    const preview = await owner.post('/dashboard/settings', {
      ...formOn(page.body),
      ...form,
      intent: 'preview',
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('First deposit addresses (TRON)');
    expect(preview.body.match(/<li><code>T[1-9A-HJ-NP-Za-km-z]{33}<\/code><\/li>/g)).toHaveLength(3);
    expect(formOn(preview.body)).toMatchObject({ payment_methods: ['tron:USDT'], tron_xpub: TRON_TEST_XPUB });
    expect((await project(m)).network).toBe('sandbox');
    const saved = await save(owner, { ...form, ttl_minutes: '30' });
    expect(saved.statusCode).toBe(303);
    expect(await project(m)).toMatchObject({ network: 'tron', invoice_ttl_seconds: 1800 });
  });

  test('EVM addresses (0x…) for an Ethereum-path xpub; a key that is not one is refused', async () => {
    const { owner } = await merchantWithOwner(t.app, 'preview-evm@shop.example');
    const page = await owner.get('/dashboard/settings');
    const preview = await owner.post('/dashboard/settings', {
      ...formOn(page.body),
      evm_xpub: TEST_XPUB,
      intent: 'preview',
    });
    expect(preview.body).toContain('First deposit addresses (EVM networks)');
    expect(preview.body.match(/<li><code>0x[0-9a-fA-F]{40}<\/code><\/li>/g)).toHaveLength(3);
    const bad = await owner.post('/dashboard/settings', {
      ...formOn(page.body),
      evm_xpub: 'xpub-nonsense',
      intent: 'preview',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/data-rule="format"/);
  });
});

describe('a project saved before live and test were kept apart (contract §21)', () => {
  test('Settings says its new invoices offer only the live methods; saving the mix again is refused', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'mixed@shop.example');
    const methods = [
      { network: 'tron', currency: 'USDT' },
      { network: 'sandbox', currency: 'USDT' },
    ];
    await admin(t.app, 'PATCH', `/v1/admin/projects/${m.projectId}`, {
      payment_methods: [methods[0]],
      tron_xpub: TRON_TEST_XPUB,
    });
    // What such a project holds: the rule refuses to save it now.
    await t.database.db
      .updateTable('projects')
      .set({ payment_methods: JSON.stringify(methods) })
      .where('id', '=', m.projectId)
      .execute();
    const page = await owner.get('/dashboard/settings');
    expect(page.body).toContain('data-notice="mixed_environments"');
    expect(page.body).toMatch(/live methods \(TRON\) and test methods \(Sandbox\)/);
    const refused = await save(owner, {});
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('data-rule="mixed_environments"');
    const fixed = await save(owner, { payment_methods: ['tron:USDT'] });
    expect(fixed.statusCode).toBe(303);
    expect((await owner.get('/dashboard/settings')).body).not.toContain('data-notice="mixed_environments"');
    expect(await project(m)).toMatchObject({ livemode: true, payment_methods: [methods[0]] });
  });
});
