import type { Kysely } from 'kysely';
import { byOperator } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { hasAnyAccount } from './repository.js';
import { type Catalog, createAccount, createProject, issueApiKey } from './service.js';

/**
 * A brand-new embedded database gets a demo account, a sandbox project and a key, so that
 * `npm start` is immediately usable. Returns the secret, which the caller prints once, and the account
 * (main.ts gives it a demo dashboard owner).
 */
export async function seedDemo(
  db: Kysely<Database>,
  catalog: Catalog,
  now: Date,
): Promise<{ secret: string; accountId: string } | undefined> {
  if (await hasAnyAccount(db)) return undefined;
  const change = byOperator(now);
  const account = await createAccount(db, { name: 'Demo account' }, change);
  const project = await createProject(
    db,
    catalog,
    { account_id: account.id, name: 'Demo shop', network: 'sandbox' },
    change,
  );
  const { secret } = await issueApiKey(db, project.id, { name: 'Demo key' }, change);
  return { secret, accountId: account.id };
}

export function demoBanner(secret: string, baseUrl: string): string {
  return [
    '',
    '  Paydesk demo project created (sandbox network). Its secret API key, shown only this once:',
    '',
    `    ${secret}`,
    '',
    '  Try it:',
    '',
    `    curl -s ${baseUrl}/v1/merchant/invoices -H "Authorization: Bearer ${secret}" \\`,
    `      -H "Content-Type: application/json" -d '{"amount": "10.50", "order_id": "order-1"}'`,
    '',
  ].join('\n');
}
