import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, admin, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import { listApiKeys } from '../merchants/service.js';
import { auditLog } from './audit.js';

/**
 * Contract §17: every change writes its audit row in the same transaction as the change, through the
 * same service function whichever surface calls it. The operator's changes through the admin API are
 * audited as `operator`.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(() => t.close());

const actions = async (accountId: string) =>
  (await auditLog(t.database.db, accountId)).map((r) => [r.actor_email, r.action]).reverse();

describe('the audit log', () => {
  test("records the operator's changes through the admin API, each once", async () => {
    const m = await createMerchant(t.app);
    const endpoint = await admin(t.app, 'POST', `/v1/admin/projects/${m.projectId}/webhook-endpoints`, {
      url: 'http://127.0.0.1:9/hooks',
    });
    await admin(t.app, 'PATCH', `/v1/admin/projects/${m.projectId}`, {
      name: 'Renamed',
      invoice_ttl_seconds: 600,
    });
    await admin(t.app, 'PATCH', `/v1/admin/projects/${m.projectId}/branding`, { brand_color: '#1d4ed8' });
    await admin(t.app, 'POST', `/v1/admin/api-keys/${m.keyId}/revoke`);
    await admin(t.app, 'POST', `/v1/admin/api-keys/${m.keyId}/revoke`); // again: no second row
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/webhook-endpoints/${endpoint.endpoint.id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    await admin(t.app, 'PATCH', `/v1/admin/accounts/${m.accountId}`, { status: 'inactive' });
    expect(await actions(m.accountId)).toEqual([
      ['operator', 'account.created'],
      ['operator', 'project.created'],
      ['operator', 'api_key.created'],
      ['operator', 'webhook_endpoint.added'],
      ['operator', 'project.settings_changed'],
      ['operator', 'project.branding_changed'],
      ['operator', 'api_key.revoked'],
      ['operator', 'webhook_endpoint.deleted'],
      ['operator', 'account.deactivated'],
    ]);
    const rows = await auditLog(t.database.db, m.accountId);
    const settings = rows.find((r) => r.action === 'project.settings_changed');
    expect(settings?.target).toBe(`${m.projectId}: name Renamed, invoice_ttl_seconds 600`);
    // Never a secret: the key's row names it by id and name only.
    for (const r of rows) expect(r.target ?? '').not.toMatch(/svc_secret_|whsec_/);
  });

  test('a change whose audit row cannot be written does not happen: no key is live without its row', async () => {
    const m = await createMerchant(t.app);
    const before = await actions(m.accountId);
    // A real failure of the audit insert, in the database itself: the table is not there.
    await sql`alter table audit_log rename to audit_log_away`.execute(t.database.db);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/admin/projects/${m.projectId}/api-keys`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: 'never' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toMatch(/svc_secret_/);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(t.database.db);
    }
    const keys = await listApiKeys(t.database.db, m.projectId);
    expect(keys.map((k) => k.name)).toEqual(['test']);
    expect(await actions(m.accountId)).toEqual(before);
  });
});
