import type { Kysely } from 'kysely';
import { audit, type Change } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { type NetworkRegistry, SANDBOX } from '../networks/network.js';
import { paymentSettingsErrors } from '../networks/settings.js';
import { generateApiKey, hashApiKey, last4 } from './api-key.js';
import type { ActiveStatus } from './merchant.table.js';
import * as repo from './repository.js';

export async function createAccount(db: Kysely<Database>, input: { name: string }, change: Change) {
  return db.transaction().execute(async (tx) => {
    const row = await repo.insertAccount(tx, {
      id: newId('acct'),
      name: input.name,
      status: 'active',
      created_at: change.now,
      updated_at: change.now,
    });
    await audit(tx, row.id, change, 'account.created', `${row.id} (${row.name})`);
    return row;
  });
}

/** Deactivation must reach every instance before the next request, hence the notify in the same transaction. */
export async function setAccountStatus(
  db: Kysely<Database>,
  id: string,
  status: ActiveStatus,
  change: Change,
) {
  return db.transaction().execute(async (tx) => {
    const row = await repo.updateAccount(tx, id, { status, updated_at: change.now });
    if (!row) throw ApiError.notFound('No account with this id');
    await repo.notifyAuthChanged(tx);
    await audit(
      tx,
      row.id,
      change,
      status === 'active' ? 'account.activated' : 'account.deactivated',
      row.id,
    );
    return row;
  });
}

export interface NewProject {
  account_id: string;
  name: string;
  currency?: string | undefined;
  network?: string | undefined;
  xpub?: string | null | undefined;
  invoice_ttl_seconds?: number | undefined;
}

export async function createProject(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  input: NewProject,
  change: Change,
) {
  const settings = {
    currency: input.currency ?? 'USDT',
    network: input.network ?? SANDBOX,
    xpub: input.xpub ?? null,
  };
  const problems = paymentSettingsErrors(networks, settings);
  if (problems.length > 0) throw ApiError.validation(problems);
  return db.transaction().execute(async (tx) => {
    const account = await repo.findAccount(tx, input.account_id);
    if (!account) {
      throw ApiError.validation([
        { in: 'body', field: 'account_id', rule: 'exists', message: 'No account with this id' },
      ]);
    }
    const row = await repo.insertProject(tx, {
      id: newId('prj'),
      account_id: account.id,
      name: input.name,
      status: 'active',
      ...settings,
      invoice_ttl_seconds: input.invoice_ttl_seconds ?? 3600,
      created_at: change.now,
      updated_at: change.now,
    });
    await audit(tx, account.id, change, 'project.created', `${row.id} (${row.name})`);
    return row;
  });
}

export interface ProjectChanges {
  status?: ActiveStatus | undefined;
  name?: string | undefined;
  invoice_ttl_seconds?: number | undefined;
  network?: string | undefined;
  currency?: string | undefined;
  xpub?: string | null | undefined;
}

export async function updateProject(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  id: string,
  changes: ProjectChanges,
  change: Change,
) {
  return db.transaction().execute(async (tx) => {
    const current = await repo.lockProject(tx, id);
    if (!current) throw ApiError.notFound('No project with this id');
    // The payment settings are checked as they will be after the change, all three together.
    const problems = paymentSettingsErrors(networks, {
      network: changes.network ?? current.network,
      currency: changes.currency ?? current.currency,
      xpub: changes.xpub === undefined ? current.xpub : changes.xpub,
    });
    if (problems.length > 0) throw ApiError.validation(problems);
    const row = await repo.updateProject(tx, id, { ...changes, updated_at: change.now });
    if (!row) throw ApiError.notFound('No project with this id');
    // Cached verifications carry the project's status and invoice settings.
    await repo.notifyAuthChanged(tx);
    await audit(tx, row.account_id, change, 'project.settings_changed', describeChanges(row.id, changes));
    return row;
  });
}

/** What an audit row says of a project change: which fields, and their new values (never a secret). */
function describeChanges(projectId: string, changes: ProjectChanges): string {
  const parts = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => (field === 'xpub' ? `xpub ${value ? 'set' : 'none'}` : `${field} ${value}`));
  return `${projectId}: ${parts.join(', ') || 'no change'}`;
}

/** Issues a key: the secret is returned this once and only its hash is stored. */
export async function issueApiKey(
  db: Kysely<Database>,
  projectId: string,
  input: { name?: string | undefined },
  change: Change,
) {
  return db.transaction().execute(async (tx) => {
    const project = await repo.findProject(tx, projectId);
    if (!project) throw ApiError.notFound('No project with this id');
    const secret = generateApiKey();
    const apiKey = await repo.insertApiKey(tx, {
      id: newId('key'),
      project_id: project.id,
      name: input.name ?? '',
      key_hash: hashApiKey(secret),
      last4: last4(secret),
      status: 'active',
      created_at: change.now,
      last_used_at: null,
      revoked_at: null,
    });
    await audit(
      tx,
      project.account_id,
      change,
      'api_key.created',
      `${apiKey.id} (${apiKey.name || 'unnamed'})`,
    );
    return { apiKey, secret };
  });
}

/** Revokes a key (again: a revoked key stays revoked, from its first revocation, and is audited once). */
export async function revokeApiKey(db: Kysely<Database>, id: string, change: Change) {
  return db.transaction().execute(async (tx) => {
    const row = await repo.revokeApiKey(tx, id, change.now);
    if (!row) throw ApiError.notFound('No API key with this id');
    await repo.notifyAuthChanged(tx);
    // Audited when this call revoked it; a key revoked before keeps its first revocation's time.
    if (row.revoked_at?.getTime() === change.now.getTime()) {
      const project = await repo.findProject(tx, row.project_id);
      if (project) {
        await audit(
          tx,
          project.account_id,
          change,
          'api_key.revoked',
          `${row.id} (${row.name || 'unnamed'})`,
        );
      }
    }
    return row;
  });
}

/** A project, whatever its status; NOT_FOUND when there is none. */
export async function findProject(db: Kysely<Database>, id: string) {
  const project = await repo.findProject(db, id);
  if (!project) throw ApiError.notFound('No project with this id');
  return project;
}

/** GET /merchant/me reads fresh rows (never the auth cache) so `last_used_at` and names are current. */
export async function describeKey(db: Kysely<Database>, projectId: string, keyId: string) {
  const [project, apiKey] = await Promise.all([repo.findProject(db, projectId), repo.findApiKey(db, keyId)]);
  if (!project || !apiKey) throw ApiError.notFound();
  return { project, apiKey };
}

export function listAccountProjects(db: Kysely<Database>, accountId: string) {
  return repo.listAccountProjects(db, accountId);
}

export function listApiKeys(db: Kysely<Database>, projectId: string) {
  return repo.listApiKeys(db, projectId);
}

/** A key of this project only: another project's key id is not found. */
export async function findProjectKey(db: Kysely<Database>, projectId: string, keyId: string) {
  const key = await repo.findApiKey(db, keyId);
  if (!key || key.project_id !== projectId) throw ApiError.notFound('No API key with this id');
  return key;
}
