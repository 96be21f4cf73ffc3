import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { type NetworkRegistry, SANDBOX } from '../networks/network.js';
import { paymentSettingsErrors } from '../networks/settings.js';
import { generateApiKey, hashApiKey, last4 } from './api-key.js';
import type { ActiveStatus } from './merchant.table.js';
import * as repo from './repository.js';

export async function createAccount(db: Kysely<Database>, input: { name: string }, now: Date) {
  return repo.insertAccount(db, {
    id: newId('acct'),
    name: input.name,
    status: 'active',
    created_at: now,
    updated_at: now,
  });
}

/** Deactivation must reach every instance before the next request, hence the notify in the same transaction. */
export async function setAccountStatus(db: Kysely<Database>, id: string, status: ActiveStatus, now: Date) {
  return db.transaction().execute(async (tx) => {
    const row = await repo.updateAccount(tx, id, { status, updated_at: now });
    if (!row) throw ApiError.notFound('No account with this id');
    await repo.notifyAuthChanged(tx);
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
  now: Date,
) {
  const settings = {
    currency: input.currency ?? 'USDT',
    network: input.network ?? SANDBOX,
    xpub: input.xpub ?? null,
  };
  const problems = paymentSettingsErrors(networks, settings);
  if (problems.length > 0) throw ApiError.validation(problems);
  const account = await repo.findAccount(db, input.account_id);
  if (!account) {
    throw ApiError.validation([
      { in: 'body', field: 'account_id', rule: 'exists', message: 'No account with this id' },
    ]);
  }
  return repo.insertProject(db, {
    id: newId('prj'),
    account_id: account.id,
    name: input.name,
    status: 'active',
    ...settings,
    invoice_ttl_seconds: input.invoice_ttl_seconds ?? 3600,
    created_at: now,
    updated_at: now,
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
  now: Date,
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
    const row = await repo.updateProject(tx, id, { ...changes, updated_at: now });
    if (!row) throw ApiError.notFound('No project with this id');
    // Cached verifications carry the project's status and invoice settings.
    await repo.notifyAuthChanged(tx);
    return row;
  });
}

/** Issues a key: the secret is returned this once and only its hash is stored. */
export async function issueApiKey(
  db: Kysely<Database>,
  projectId: string,
  input: { name?: string | undefined },
  now: Date,
) {
  const project = await repo.findProject(db, projectId);
  if (!project) throw ApiError.notFound('No project with this id');
  const secret = generateApiKey();
  const apiKey = await repo.insertApiKey(db, {
    id: newId('key'),
    project_id: project.id,
    name: input.name ?? '',
    key_hash: hashApiKey(secret),
    last4: last4(secret),
    status: 'active',
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  });
  return { apiKey, secret };
}

export async function revokeApiKey(db: Kysely<Database>, id: string, now: Date) {
  return db.transaction().execute(async (tx) => {
    const row = await repo.revokeApiKey(tx, id, now);
    if (!row) throw ApiError.notFound('No API key with this id');
    await repo.notifyAuthChanged(tx);
    return row;
  });
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
