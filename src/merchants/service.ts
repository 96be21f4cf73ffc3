import type { Kysely } from 'kysely';
import { audit, type Change } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import type { FieldError } from '../http/errors.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import {
  addressKind,
  networkMethods,
  type PaymentMethod,
  payableIn,
  paymentSettingsErrors,
} from '../networks/methods.js';
import { type Currency, type NetworkRegistry, SANDBOX } from '../networks/network.js';
import type { RateSettings } from '../rates/settings.js';
import { generateApiKey, hashApiKey, last4 } from './api-key.js';
import type { ActiveStatus, ProjectRow } from './merchant.table.js';
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

export interface PaymentInput {
  currency?: string | undefined;
  network?: string | undefined;
  payment_methods?: PaymentMethod[] | undefined;
  xpub?: string | null | undefined;
  evm_xpub?: string | null | undefined;
  tron_xpub?: string | null | undefined;
  payout_address?: string | null | undefined;
  solana_address?: string | null | undefined;
  underpayment_tolerance_percent?: number | undefined;
}

export interface NewProject extends PaymentInput {
  account_id: string;
  name: string;
  invoice_ttl_seconds?: number | undefined;
}

/** What the payment settings are checked against: the networks and the currencies a rate source quotes. */
export interface Catalog {
  networks: NetworkRegistry;
  rates: Pick<RateSettings, 'currencies'>;
}

export async function createProject(
  db: Kysely<Database>,
  catalog: Catalog,
  input: NewProject,
  change: Change,
) {
  const settings = paymentSettings(catalog, undefined, input);
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

export interface ProjectChanges extends PaymentInput {
  status?: ActiveStatus | undefined;
  name?: string | undefined;
  invoice_ttl_seconds?: number | undefined;
}

const PAYMENT_FIELDS = [
  'currency',
  'network',
  'payment_methods',
  'xpub',
  'evm_xpub',
  'tron_xpub',
  'payout_address',
  'solana_address',
  'underpayment_tolerance_percent',
] as const;

export async function updateProject(
  db: Kysely<Database>,
  catalog: Catalog,
  id: string,
  changes: ProjectChanges,
  change: Change,
) {
  return db.transaction().execute(async (tx) => {
    const current = await repo.lockProject(tx, id);
    if (!current) throw ApiError.notFound('No project with this id');
    // The payment settings are checked as they will be after the change, all together.
    const touchesPayment = PAYMENT_FIELDS.some((f) => changes[f] !== undefined);
    const { status, name, invoice_ttl_seconds } = changes;
    const row = await repo.updateProject(tx, id, {
      ...(status === undefined ? {} : { status }),
      ...(name === undefined ? {} : { name }),
      ...(invoice_ttl_seconds === undefined ? {} : { invoice_ttl_seconds }),
      ...(touchesPayment ? paymentSettings(catalog, current, changes) : {}),
      updated_at: change.now,
    });
    if (!row) throw ApiError.notFound('No project with this id');
    // Cached verifications carry the project's status and invoice settings.
    await repo.notifyAuthChanged(tx);
    await audit(tx, row.account_id, change, 'project.settings_changed', describeChanges(row.id, changes));
    return row;
  });
}

/**
 * A project of one network changing only its currency keeps the tokens it takes that can pay the new
 * one (USDT → EUR keeps USDT, and adds no USDC the merchant never chose); when none can (USDT → USDC)
 * it takes that network's tokens in the new currency. A project of several networks keeps its methods,
 * and the rules name any that cannot pay the new currency.
 */
function afterCurrencyChange(networks: NetworkRegistry, methods: PaymentMethod[], currency: string) {
  const names = new Set(methods.map((m) => m.network));
  if (names.size !== 1) return methods;
  const kept = methods.filter((m) => payableIn(currency, m.currency));
  return kept.length > 0 ? kept : singleNetwork(networks, [...names][0] as string, currency);
}

/** The payment columns of a project after `input` (contract §15), or VALIDATION_ERROR naming every problem. */
function paymentSettings(catalog: Catalog, current: ProjectRow | undefined, input: PaymentInput) {
  const { networks } = catalog;
  const currency = input.currency ?? current?.currency ?? 'USDT';
  const problems: FieldError[] = [];
  let methods: PaymentMethod[];
  if (input.payment_methods !== undefined) {
    methods = input.payment_methods;
    if (input.network !== undefined && input.network !== methods[0]?.network) {
      problems.push({
        in: 'body',
        field: 'network',
        rule: 'conflict',
        message: "network, when sent with payment_methods, must be the first method's network",
      });
    }
  } else if (input.network !== undefined) {
    methods = singleNetwork(networks, input.network, currency);
  } else if (current && input.currency !== undefined) {
    methods = afterCurrencyChange(networks, current.payment_methods, currency);
  } else {
    methods = current?.payment_methods ?? singleNetwork(networks, SANDBOX, currency);
  }
  const kinds = new Set(methods.map((m) => addressKind(networks, m.network)));
  // The older single `xpub` is the key of the one chain family the methods are in.
  let legacyFamily: 'evm' | 'tron' | undefined;
  if (input.xpub !== undefined) {
    if (kinds.has('evm') && kinds.has('tron')) {
      problems.push({
        in: 'body',
        field: 'xpub',
        rule: 'ambiguous',
        message: 'this project accepts EVM and TRON methods: send evm_xpub and tron_xpub instead of xpub',
      });
    } else legacyFamily = kinds.has('tron') ? 'tron' : 'evm';
  }
  const keyOf = (family: 'evm' | 'tron') => {
    const given = input[`${family}_xpub`];
    if (given !== undefined) return { xpub: given, given: true };
    if (legacyFamily === family) return { xpub: input.xpub ?? null, given: true };
    return { xpub: current?.[`${family}_xpub`] ?? null, given: false };
  };
  const evm = keyOf('evm');
  const tron = keyOf('tron');
  const payout =
    input.payout_address !== undefined
      ? { address: input.payout_address, given: true }
      : { address: current?.payout_address ?? null, given: false };
  const solana =
    input.solana_address !== undefined
      ? { address: input.solana_address?.trim() || null, given: true }
      : { address: current?.solana_address ?? null, given: false };
  problems.push(
    ...paymentSettingsErrors(networks, {
      currency,
      priced: catalog.rates.currencies,
      methods,
      evmXpub: evm.xpub,
      tronXpub: tron.xpub,
      payoutAddress: payout.address,
      solanaAddress: solana.address,
      given: {
        evm: evm.given,
        tron: tron.given,
        payout: payout.given,
        solana: solana.given,
        methods: current === undefined || input.payment_methods !== undefined || input.network !== undefined,
      },
    }),
  );
  if (problems.length > 0) {
    throw ApiError.validation(legacyFields(problems, input, legacyFamily));
  }
  const evmXpub = evm.xpub;
  const tronXpub = tron.xpub;
  const tolerance =
    input.underpayment_tolerance_percent ?? Number(current?.underpayment_tolerance_percent ?? 0);
  return {
    currency,
    network: (methods[0] as PaymentMethod).network,
    payment_methods: JSON.stringify(methods.map(({ network, currency }) => ({ network, currency }))),
    evm_xpub: evmXpub,
    tron_xpub: tronXpub,
    payout_address: payout.address,
    solana_address: solana.address,
    // What readers of the single `xpub` see: the key, when there is only one.
    xpub: evmXpub !== null && tronXpub !== null ? null : (evmXpub ?? tronXpub),
    underpayment_tolerance_percent: tolerance.toFixed(2),
  };
}

/** "Only `network`", as before payment methods: the network's tokens payable in the currency. */
function singleNetwork(networks: NetworkRegistry, network: string, currency: string): PaymentMethod[] {
  const methods = networkMethods(networks, network, currency);
  // None: a method the rules refuse, so the caller hears why (an unknown network, a token not offered).
  return methods.length > 0
    ? methods
    : [{ network, currency: (currency === 'USD' ? 'USDT' : currency) as Currency }];
}

/**
 * A request in the shape of before payment methods (`network`, `currency`, `xpub`) hears of its
 * problems under those fields, as it always did.
 */
function legacyFields(problems: FieldError[], input: PaymentInput, legacyFamily: string | undefined) {
  const byNetwork = input.payment_methods === undefined;
  return problems.map((p) => {
    if (legacyFamily && p.field === `${legacyFamily}_xpub`) return { ...p, field: 'xpub' };
    if (byNetwork && input.evm_xpub === undefined && input.tron_xpub === undefined) {
      if (p.field === 'evm_xpub' || p.field === 'tron_xpub') return { ...p, field: 'xpub' };
    }
    if (byNetwork && /^payment_methods\.\d+\.network$/.test(p.field)) return { ...p, field: 'network' };
    if (byNetwork && /^payment_methods\.\d+\.currency$/.test(p.field)) return { ...p, field: 'currency' };
    return p;
  });
}

/**
 * Projects of before payment methods have one `xpub`, for the family of their network; which family a
 * network is in is configuration, so it is filed here, on start-up, once (migration 0010).
 */
export async function fileLegacyXpubs(db: Kysely<Database>, networks: NetworkRegistry): Promise<void> {
  const tron = networks
    .all()
    .filter((n) => n.family === 'tron')
    .map((n) => n.name);
  await repo.fileLegacyXpubs(db, tron);
}

/** What an audit row says of a project change: which fields, and their new values (never a secret). */
function describeChanges(projectId: string, changes: ProjectChanges): string {
  const parts = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) =>
      field.endsWith('xpub')
        ? `${field} ${value ? 'set' : 'none'}`
        : `${field} ${typeof value === 'object' ? JSON.stringify(value) : value}`,
    );
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
