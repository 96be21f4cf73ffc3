import type { Kysely } from 'kysely';
import { OPERATOR } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { inviteUser } from './service.js';

export const DEMO_OWNER_EMAIL = 'owner@demo.paydesk.dev';

/**
 * The demo account's dashboard owner, made beside the demo key on a brand-new embedded database. The
 * printed link is an ordinary invite (single use, 72 h): it sets the password, then the user signs in.
 */
export async function seedDemoOwner(
  db: Kysely<Database>,
  accountId: string,
  ctx: { now: Date; publicBaseUrl: string },
): Promise<string> {
  const { inviteUrl } = await inviteUser(
    db,
    accountId,
    { email: DEMO_OWNER_EMAIL, role: 'owner' },
    OPERATOR,
    ctx,
  );
  return inviteUrl;
}

export function demoOwnerBanner(inviteUrl: string, baseUrl: string): string {
  return [
    '  The merchant dashboard: set a password for the demo owner here (the link works once, for 72 hours),',
    `  then sign in at ${baseUrl}/dashboard as ${DEMO_OWNER_EMAIL}:`,
    '',
    `    ${inviteUrl}`,
    '',
  ].join('\n');
}
