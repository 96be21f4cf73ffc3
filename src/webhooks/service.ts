import type { Kysely } from 'kysely';
import { audit, type Change } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { newEvent } from '../events/body.js';
import { TEST_EVENT_TYPE, type EventType as WebhookEventType } from '../events/catalogue.js';
import { insertEvents } from '../events/repository.js';
import { ApiError } from '../http/errors.js';
import { offsetOf, pagination } from '../http/pagination.js';
import { newId } from '../ids.js';
import { findInvoiceEvent } from '../invoices/browse.js';
import { findProject } from '../merchants/service.js';
import { livemodeOf } from '../networks/livemode.js';
import type { NetworkRegistry } from '../networks/network.js';
import { resolveTarget, UrlRefused } from './address.js';
import * as deliveries from './delivery.repository.js';
import { eventsWrittenSoFar } from './fan-out.repository.js';
import * as repo from './repository.js';
import { newSigningSecret } from './signing.js';

export interface NewEndpoint {
  url: string;
  events?: WebhookEventType[] | null | undefined;
}

/** Registers an endpoint; its signing secret is returned this once. */
export async function createEndpoint(
  db: Kysely<Database>,
  projectId: string,
  input: NewEndpoint,
  allowPrivate: boolean,
  change: Change,
) {
  const project = await findProject(db, projectId);
  await checkUrl(input.url, allowPrivate);
  const secret = newSigningSecret();
  const endpoint = await db.transaction().execute(async (tx) => {
    const row = await repo.insertEndpoint(tx, {
      // It receives the events written from now on (fan-out.ts), not a backlog from before it.
      events_after: await eventsWrittenSoFar(tx),
      id: newId('we'),
      project_id: project.id,
      url: input.url,
      events: [...new Set(input.events ?? [])],
      secret,
      status: 'active',
      created_at: change.now,
      deleted_at: null,
    });
    await audit(tx, project.account_id, change, 'webhook_endpoint.added', `${row.id} (${row.url})`);
    return row;
  });
  return { endpoint, secret };
}

/** The account an endpoint's changes are audited under. */
async function accountOf(db: Kysely<Database>, projectId: string): Promise<string> {
  return (await findProject(db, projectId)).account_id;
}

/** The SSRF guard at registration; the worker runs it again before every attempt. */
async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  try {
    await resolveTarget(url, allowPrivate);
  } catch (err) {
    if (!(err instanceof UrlRefused)) throw err;
    throw ApiError.validation([{ in: 'body', field: 'url', rule: err.rule, message: err.message }]);
  }
}

export async function listEndpoints(db: Kysely<Database>, projectId: string) {
  await findProject(db, projectId);
  return repo.listEndpoints(db, projectId);
}

/** Soft delete: the log stays readable, and deliveries not yet made are abandoned with it. */
export async function deleteEndpoint(db: Kysely<Database>, id: string, change: Change) {
  return db.transaction().execute(async (tx) => {
    const row = await repo.softDeleteEndpoint(tx, id, change.now);
    if (!row) throw ApiError.notFound('No webhook endpoint with this id');
    await repo.abandonDeliveries(tx, id, change.now);
    await audit(tx, await accountOf(tx, row.project_id), change, 'webhook_endpoint.deleted', row.id);
    return row;
  });
}

export async function listAttempts(
  db: Kysely<Database>,
  endpointId: string,
  query: { limit: number; page: number },
) {
  const endpoint = await repo.findEndpoint(db, endpointId);
  if (!endpoint) throw ApiError.notFound('No webhook endpoint with this id');
  const [rows, total] = await Promise.all([
    repo.listAttempts(db, endpointId, { limit: query.limit, offset: offsetOf(query) }),
    repo.countAttempts(db, endpointId),
  ]);
  return { rows, pagination: pagination(query, total) };
}

/**
 * Sends an event again, now, to each endpoint it went to that still exists: the open series' next
 * attempt brought forward where one is waiting (rather than two series side by side), otherwise a new
 * attempt series.
 */
export async function redeliver(db: Kysely<Database>, eventId: string, change: Change) {
  const now = change.now;
  return db.transaction().execute(async (tx) => {
    const event = await repo.lockEvent(tx, eventId);
    if (!event) throw ApiError.notFound('No event with this id');
    const endpoints = await repo.eventEndpoints(tx, eventId, now);
    const open = endpoints.filter((e) => e.open).map((e) => e.id);
    const closed = endpoints.filter((e) => !e.open).map((e) => e.id);
    await repo.rescheduleOpen(tx, eventId, open, now);
    await repo.insertDeliveries(tx, eventId, closed, now);
    await repo.wakeWorkers(tx);
    await audit(tx, await accountOf(tx, event.project_id), change, 'webhook_event.resent', event.id);
    return { event, endpoints };
  });
}

/** An endpoint of this project only: another project's endpoint id is not found. */
export async function findProjectEndpoint(db: Kysely<Database>, projectId: string, id: string) {
  const endpoint = await repo.findEndpoint(db, id);
  if (!endpoint || endpoint.project_id !== projectId || endpoint.deleted_at) {
    throw ApiError.notFound('No webhook endpoint with this id');
  }
  return endpoint;
}

/** Disabled endpoints get no new deliveries (the fan-out skips them) and their queue waits. */
export async function setEndpointStatus(
  db: Kysely<Database>,
  id: string,
  status: 'active' | 'disabled',
  change: Change,
) {
  return db.transaction().execute(async (tx) => {
    const row = await repo.setEndpointStatus(tx, id, status);
    if (!row) throw ApiError.notFound('No webhook endpoint with this id');
    if (status === 'active') await repo.wakeWorkers(tx);
    const action = status === 'active' ? 'webhook_endpoint.enabled' : 'webhook_endpoint.disabled';
    await audit(tx, await accountOf(tx, row.project_id), change, action, row.id);
    return row;
  });
}

/** How long a rolled secret keeps signing beside the new one, so receivers can switch without a gap. */
export const ROLL_OVERLAP_MS = 24 * 3600_000;

/** A new signing secret, returned this once; the old one keeps signing too for 24 hours. */
export async function rollEndpointSecret(db: Kysely<Database>, id: string, change: Change) {
  const secret = newSigningSecret();
  return db.transaction().execute(async (tx) => {
    const row = await repo.rollSecret(tx, id, secret, new Date(change.now.getTime() + ROLL_OVERLAP_MS));
    if (!row) throw ApiError.notFound('No webhook endpoint with this id');
    await audit(tx, await accountOf(tx, row.project_id), change, 'webhook_endpoint.secret_rolled', row.id);
    return { endpoint: row, secret };
  });
}

/**
 * Queues a `webhook.test` event to this endpoint only, signed and retried like any other. Its
 * `livemode` is its project's (contract §21), so a receiver's filter on it can be tried too.
 */
export async function sendTestEvent(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  endpoint: { id: string; project_id: string },
  change: Change,
) {
  const now = change.now;
  const project = await findProject(db, endpoint.project_id);
  const data = { endpoint_id: endpoint.id, message: 'A test event from the Paydesk dashboard' };
  const livemode = livemodeOf(networks, project.payment_methods);
  const event = newEvent(endpoint.project_id, null, TEST_EVENT_TYPE, data, now, livemode);
  await db.transaction().execute(async (tx) => {
    await insertEvents(tx, [event]);
    await repo.queueTestDelivery(tx, event.id, endpoint.id, now);
    await audit(
      tx,
      await accountOf(tx, endpoint.project_id),
      change,
      'webhook_endpoint.test_sent',
      endpoint.id,
    );
  });
  return event.id;
}

/** Each delivery of these events, with its endpoint and its last attempt (an invoice's page). */
export function deliveriesOf(db: Kysely<Database>, eventIds: string[]) {
  return deliveries.eventDeliveries(db, eventIds);
}

/** "Resend": redelivery of one event, only an event of this invoice of this project. */
export async function resendInvoiceEvent(
  db: Kysely<Database>,
  projectId: string,
  invoiceId: string,
  eventId: string,
  change: Change,
) {
  const event = await findInvoiceEvent(db, projectId, invoiceId, eventId);
  return redeliver(db, event.id, change);
}
