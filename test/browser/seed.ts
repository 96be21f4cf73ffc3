import type { FastifyInstance } from 'fastify';
import { expireDue } from '../../src/invoices/observe.js';

export const STATES = ['waiting', 'detected', 'paid', 'expired', 'failed'] as const;
export type State = (typeof STATES)[number];

/** A clock the caller can move (test/app.ts manualClock fits). */
export interface MovableClock {
  (): Date;
  advance(ms: number): void;
}

async function call(app: FastifyInstance, token: string, method: 'POST', url: string, body: object) {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload: body });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** The fields of a new invoice the browser tests use. */
export interface CreatedInvoice {
  id: string;
  /** The one method's address (null on an invoice of several methods until a payment is seen). */
  pay_address: string;
  payment_methods: Array<{ network: string; currency: string; pay_address: string; amount_due: string }>;
}

/** A sandbox project and an API key, made through the admin API; returns a function that creates invoices. */
export async function sandboxProject(app: FastifyInstance, adminToken: string, project: object = {}) {
  const account = await call(app, adminToken, 'POST', '/v1/admin/accounts', { name: 'Acme' });
  const prj = await call(app, adminToken, 'POST', '/v1/admin/projects', {
    account_id: account.id,
    name: 'Acme Coffee Roasters',
    ...project,
  });
  const key = await call(app, adminToken, 'POST', `/v1/admin/projects/${prj.id}/api-keys`, {});
  return async (amount = '10.00', extra: object = {}): Promise<CreatedInvoice> =>
    call(app, key.secret, 'POST', '/v1/merchant/invoices', { amount, ...extra });
}

/** Pays a sandbox invoice through the admin simulator (contract §11). */
export function simulate(app: FastifyInstance, adminToken: string, id: string, body: object = {}) {
  return call(app, adminToken, 'POST', `/v1/admin/invoices/${id}/simulate-payment`, body);
}

/**
 * One invoice in each state of the page. Expired and failed ones (a 60 s TTL; failed after a partial
 * payment) are made first and the clock moved past their deadline; the others are made after, so they
 * are still open on the moved clock.
 */
export async function seedStates(
  app: FastifyInstance,
  adminToken: string,
  clock: MovableClock,
): Promise<Record<State, string>> {
  const short = await sandboxProject(app, adminToken, { invoice_ttl_seconds: 60 });
  const expired = (await short('25.00')).id;
  const failed = (await short('25.00')).id;
  await simulate(app, adminToken, failed, { amount: '10.00' });
  clock.advance(61_000);
  await expireDue(app.db, { now: clock(), publicBaseUrl: app.config.publicBaseUrl }, 100);
  const open = await sandboxProject(app, adminToken);
  const waiting = (await open('25.00')).id;
  const detected = (await open('25.00')).id;
  await simulate(app, adminToken, detected, { confirmed: false });
  const paid = (await open('25.00')).id;
  await simulate(app, adminToken, paid);
  return { waiting, detected, paid, expired, failed };
}
