import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../../test/app.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type DashboardHarness, OWNER, startDashboardHarness, VIEWER } from '../../test/browser/dashboard.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';

let h: DashboardHarness;
beforeAll(async () => {
  if (!skipBrowserTests) h = await startDashboardHarness();
});
afterAll(async () => {
  await h?.close();
});

const api = (path: string, secret: string, init: RequestInit = {}) =>
  fetch(`${h.base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...init.headers },
  });

const nav = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });

describe.skipIf(skipBrowserTests)('the dashboard in Chromium', () => {
  test('sign in: the navigation, the project select and sign out', async () => {
    const page = await h.signedIn(OWNER);
    for (const name of ['Overview', 'Invoices', 'API keys', 'Webhooks', 'Settings', 'Team']) {
      await expect(nav(page).getByRole('link', { name, exact: true }).count()).resolves.toBe(1);
    }
    const select = page.getByLabel('Project');
    await expect(select.locator('option').allTextContents()).resolves.toEqual([
      'Acme Coffee Roasters',
      'Acme Tea',
    ]);
    await select.selectOption({ label: 'Acme Tea' });
    await page.getByText('Acme Tea · USDT · USDT on Sandbox').waitFor();
    await select.selectOption({ label: 'Acme Coffee Roasters' });
    await page.getByText('Acme Coffee Roasters · USDT · USDT on Sandbox').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(`${h.base}/dashboard/invoices`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.context().close();
  });

  test('create a key, use it, revoke it: the next API call answers API_KEY_REVOKED', async () => {
    const page = await h.signedIn(OWNER);
    await nav(page).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name').fill('Shop backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('Secret key').inputValue();
    expect(secret).toMatch(/^svc_secret_[A-Za-z0-9]{32,}$/);
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);

    const created = await api('/v1/merchant/invoices', secret, {
      method: 'POST',
      body: JSON.stringify({ amount: '4.20' }),
    });
    expect(created.status).toBe(201);

    await page.goto(`${h.base}/dashboard/api-keys`);
    const row = page.getByRole('row').filter({ hasText: 'Shop backend' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key revoked').waitFor();
    await row.getByText('revoked').waitFor();
    const after = await api('/v1/merchant/me', secret);
    expect(after.status).toBe(401);
    expect(((await after.json()) as any).error.code).toBe('API_KEY_REVOKED');
    await page.context().close();
  });

  test('a webhook endpoint gets a paid invoice, the delivery shows, Resend sends it again, and a rolled secret signs beside the old one', async () => {
    const page = await h.signedIn(OWNER);
    await nav(page).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(h.receiver.url);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);

    const invoice = (await (
      await api('/v1/merchant/invoices', h.m.secret, {
        method: 'POST',
        body: JSON.stringify({ amount: '25.00', order_id: 'order-77' }),
      })
    ).json()) as any;
    const id = invoice.data.id as string;
    const paid = await fetch(`${h.base}/v1/admin/invoices/${id}/simulate-payment`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paid.status).toBe(200);
    // invoice.created, invoice.payment_detected and invoice.paid, each signed with the endpoint's secret.
    const delivered = await h.receiver.waitFor(3);
    const verifier = new Webhook(secret);
    const types = delivered.map(
      (r) => (verifier.verify(r.body, r.headers as Record<string, string>) as any).type,
    );
    expect(types.sort()).toEqual(['invoice.created', 'invoice.paid', 'invoice.payment_detected']);
    const paidEventId = delivered.find((r) => r.body.includes('"type":"invoice.paid"'))?.headers[
      'webhook-id'
    ];

    // The delivery shows on the invoice's page; Resend sends the same event again.
    await nav(page).getByRole('link', { name: 'Invoices' }).click();
    await page.getByLabel('Search').fill('order-77');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: id }).click();
    const paidItem = page.getByRole('listitem').filter({ hasText: 'invoice.paid' });
    // The receiver has it; the attempt's row is written as its answer comes back: reload until shown.
    await expect
      .poll(async () => {
        await page.reload();
        return paidItem.getByText('succeeded').count();
      })
      .toBeGreaterThan(0);
    await paidItem.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('Event queued to be sent again').waitFor();
    const resent = (await h.receiver.waitFor(4))[3];
    expect(resent!.headers['webhook-id']).toBe(paidEventId);

    // Roll: the next request carries two signatures, one per secret, and the library takes either.
    await nav(page).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Roll secret' }).click();
    const rolled = await page.getByLabel('Signing secret').inputValue();
    expect(rolled).not.toBe(secret);
    await api('/v1/merchant/invoices', h.m.secret, {
      method: 'POST',
      body: JSON.stringify({ amount: '1.00' }),
    });
    const next = (await h.receiver.waitFor(5))[4];
    const headers = next!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect((new Webhook(secret).verify(next!.body, headers) as any).type).toBe('invoice.created');
    expect((new Webhook(rolled).verify(next!.body, headers) as any).type).toBe('invoice.created');

    // The endpoint's own log on the Webhooks page.
    await nav(page).getByRole('link', { name: 'Webhooks' }).click();
    await expect
      .poll(async () => {
        await page.reload();
        return page.getByRole('cell', { name: 'invoice.paid' }).count();
      })
      .toBeGreaterThan(0);
    await page.context().close();
  });

  test('invoices: the Status filter, and Export CSV downloads the filtered list', async () => {
    const page = await h.signedIn(OWNER);
    await nav(page).getByRole('link', { name: 'Invoices' }).click();
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    for (const name of ['Invoice', 'Order', 'Amount', 'Status', 'Created']) {
      await expect(page.getByRole('columnheader', { name, exact: true }).count()).resolves.toBe(1);
    }
    await page.getByLabel('Status').selectOption('paid');
    await page.waitForURL(/status=paid/);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const file = await (await download).createReadStream();
    let csv = '';
    for await (const chunk of file) csv += chunk;
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,order_id,status/);
    expect(lines.slice(1).every((l) => l.split(',')[2] === 'paid')).toBe(true);
    await page.context().close();
  });

  test('settings: payment methods, invoice currency, tolerance and keys; addresses shown as a key is typed', async () => {
    const page = await h.signedIn(OWNER);
    await page.getByLabel('Project').selectOption({ label: 'Acme Tea' });
    await page.getByText('Acme Tea · USDT · USDT on Sandbox').waitFor();
    await nav(page).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    const methods = page.getByRole('group', { name: 'Payment methods' });
    await methods.getByLabel('USDT on Sandbox', { exact: true }).uncheck();
    for (const name of ['USDT on TRON', 'USDC on Polygon', 'USDC on Base']) {
      await methods.getByLabel(name, { exact: true }).check();
    }
    await page.getByLabel('Invoice currency').selectOption('USD');
    await page.getByLabel('Underpayment tolerance (%)').fill('0.5');
    // The script derives the first addresses as the key is typed, before anything is saved.
    await page.getByLabel('EVM xpub').fill(TEST_XPUB);
    await page.getByRole('heading', { name: 'First deposit addresses (EVM networks)' }).waitFor();
    await page.getByLabel('TRON xpub').fill(TRON_TEST_XPUB);
    await page.getByRole('heading', { name: 'First deposit addresses (TRON)' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Settings saved').waitFor();
    for (const name of ['USDT on TRON', 'USDC on Polygon', 'USDC on Base']) {
      await expect(methods.getByLabel(name, { exact: true }).isChecked(), name).resolves.toBe(true);
    }
    await expect(methods.getByLabel('USDT on Sandbox', { exact: true }).isChecked()).resolves.toBe(false);
    await expect(page.getByLabel('Invoice currency').inputValue()).resolves.toBe('USD');
    await expect(page.getByLabel('Underpayment tolerance (%)').inputValue()).resolves.toBe('0.5');
    // Ticked on a project that had none of them: they follow in the page's order.
    await nav(page).getByRole('link', { name: 'Overview' }).click();
    await page.getByText('Acme Tea · USD · USDC on Polygon, USDC on Base, USDT on TRON').waitFor();
    await page.context().close();
  });

  test('a viewer cannot see keys', async () => {
    const page = await h.signedIn(VIEWER);
    await expect(nav(page).getByRole('link', { name: 'API keys' }).count()).resolves.toBe(0);
    await expect(nav(page).getByRole('link', { name: 'Settings' }).count()).resolves.toBe(0);
    await expect(nav(page).getByRole('link', { name: 'Team' }).count()).resolves.toBe(0);
    const res = await page.goto(`${h.base}/dashboard/api-keys`);
    expect(res?.status()).toBe(404);
    await expect(page.getByText('svc_secret').count()).resolves.toBe(0);
    await page.context().close();
  });

  test('no page broke its CSP or threw', () => {
    expect(h.problems).toEqual([]);
  });
});
