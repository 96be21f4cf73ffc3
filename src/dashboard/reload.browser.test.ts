import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createInvoice } from '../../test/app.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type DashboardHarness, OWNER, startDashboardHarness } from '../../test/browser/dashboard.js';
import { auditLog } from '../audit/audit.js';
import { listApiKeys } from '../merchants/service.js';
import { listUsers } from '../users/service.js';
import { listEndpoints } from '../webhooks/service.js';

/**
 * Contract §17 in a real browser: after each form that changes something, the page it leads to is
 * reloaded, left with Back and come back to with Forward; the objects are counted each time, and a
 * secret shows on the first load only. A double click on a submit button makes one object.
 */
let h: DashboardHarness;
let page: Page;
beforeAll(async () => {
  if (skipBrowserTests) return;
  h = await startDashboardHarness();
  page = await h.signedIn(OWNER);
});
afterAll(async () => {
  await h?.close();
});

const db = () => h.t.database.db;
const keys = async () => (await listApiKeys(db(), h.m.projectId)).length;
const endpoints = async () => (await listEndpoints(db(), h.m.projectId)).length;
const users = async () => (await listUsers(db(), h.m.accountId)).length;
const audited = async (action: string) =>
  (await auditLog(db(), h.m.accountId, 1000)).filter((r) => r.action === action).length;

/** Reload, Back, Forward: none of them may change the count. */
async function revisit(count: () => Promise<number>) {
  const before = await count();
  await page.reload();
  expect(await count()).toBe(before);
  await page.goBack();
  expect(await count()).toBe(before);
  await page.goForward();
  expect(await count()).toBe(before);
  return before;
}

describe.skipIf(skipBrowserTests)('every dashboard result page, reloaded, repeats nothing', () => {
  test('Create key: one key; its secret on the first load only', async () => {
    const before = await keys();
    await page.goto(`${h.base}/dashboard/api-keys/new`);
    await page.getByLabel('Name').fill('Reloaded');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('Secret key').inputValue();
    expect(secret).toMatch(/^svc_secret_/);
    expect(await revisit(keys)).toBe(before + 1);
    await page.reload();
    await page.getByText('cannot be shown again').first().waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  test('Create key, the same form sent twice at once (a double click on a slow connection): one key', async () => {
    const before = await keys();
    await page.goto(`${h.base}/dashboard/api-keys/new`);
    await page.getByLabel('Name').fill('Double');
    // Chromium merges two clicks made in the same instant into one request; on a slow connection the
    // first has already left when the second is made. The page sends what both would: the same form
    // (its CSRF and one-time tokens) twice, at once.
    const statuses = await page.getByRole('button', { name: 'Create key' }).evaluate(async (button) => {
      const form = (button as any).form;
      const g = globalThis as any;
      const send = () =>
        fetch(form.action, {
          method: 'POST',
          body: new URLSearchParams(new g.FormData(form)),
          redirect: 'manual',
        }).then((r) => r.type);
      return Promise.all([send(), send()]);
    });
    expect(statuses).toEqual(['opaqueredirect', 'opaqueredirect']);
    expect(await keys()).toBe(before + 1);
  });

  test('Revoke: audited once', async () => {
    await page.goto(`${h.base}/dashboard/api-keys`);
    await page.getByRole('button', { name: 'Revoke' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Key revoked').waitFor();
    expect(await revisit(() => audited('api_key.revoked'))).toBe(1);
  });

  test('Add endpoint, then Roll secret: one endpoint, one roll, each secret on the first load only', async () => {
    const before = await endpoints();
    await page.goto(`${h.base}/dashboard/webhooks/new`);
    await page.getByLabel('Endpoint URL').fill(h.receiver.url);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(await revisit(endpoints)).toBe(before + 1);
    expect(await page.content()).not.toContain(secret);

    await page.goto(`${h.base}/dashboard/webhooks`);
    await page.getByRole('button', { name: 'Roll secret' }).first().click();
    const rolled = await page.getByLabel('Signing secret').inputValue();
    expect(rolled).not.toBe(secret);
    expect(await revisit(() => audited('webhook_endpoint.secret_rolled'))).toBe(1);
    expect(await page.content()).not.toContain(rolled);
  });

  test('Send test event: one test event', async () => {
    await page.goto(`${h.base}/dashboard/webhooks`);
    await page.getByRole('button', { name: 'Send test event' }).first().click();
    await page.getByRole('status').first().waitFor();
    expect(await revisit(() => audited('webhook_endpoint.test_sent'))).toBe(1);
  });

  test('Invite: one user; the link on the first load only', async () => {
    const before = await users();
    await page.goto(`${h.base}/dashboard/team/invite`);
    await page.getByLabel('Email').fill('reloaded@acme.example');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = await page.getByLabel('Invite link').inputValue();
    expect(await revisit(users)).toBe(before + 1);
    expect(await page.content()).not.toContain(link);
  });

  test('Settings: saved once', async () => {
    await page.goto(`${h.base}/dashboard/settings`);
    await page.getByLabel('Project name').fill('Acme Coffee Roasters (reloaded)');
    const form = page.locator('form', { has: page.getByLabel('Project name') });
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').waitFor();
    expect(await revisit(() => audited('project.settings_changed'))).toBe(1);
  });

  test("Resend an invoice's event: sent again once", async () => {
    const id = (await createInvoice(h.t.app, h.m, { amount: '3.00' })).json().data.id;
    await admin(h.t.app, 'POST', `/v1/admin/invoices/${id}/simulate-payment`, {});
    await page.goto(`${h.base}/dashboard/invoices/${id}`);
    const resend = page.getByRole('button', { name: 'Resend' }).first();
    // The worker fans the event out into a delivery a moment after it is written.
    await expect
      .poll(async () => {
        await page.reload();
        return resend.count();
      })
      .toBeGreaterThan(0);
    await resend.click();
    await page.getByText('Event queued to be sent again').waitFor();
    expect(await revisit(() => audited('webhook_event.resent'))).toBe(1);
  });
});
