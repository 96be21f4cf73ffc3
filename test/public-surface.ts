import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { observeOne } from '../src/invoices/observe.js';
import { money } from '../src/money/money.js';
import { createInvoice, createMerchant, type TestApp } from './app.js';
import { TEST_XPUB } from './chain/wallet.js';

/**
 * Contract §21, strangers cannot fake, block or hide a payment: the shared walk of the public-page
 * security suites (one file per surface, as the route-table suites of the protected routes). Every
 * route of a surface, read from the app's route table so a new route is covered the moment it is
 * registered, is tried with every method, no credentials, odd queries and bodies, and a new client
 * address each time (no rate limit answers in the route's place). No answer may move money.
 */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const QUERIES = ['', '?method=sandbox:USDT', '?method=ethereum:USDT&lang=de', '?amount=25.00&currency=USDT'];
// The zero address is refused by the claim form, so even the real claim token changes nothing here:
// claiming with a good address is the token holder's right (checkout/refund.test.ts).
const FORM = 'method=sandbox%3AUSDT&address=0x0000000000000000000000000000000000000000&amount=25.00';
const BODIES = [
  { 'content-type': 'application/x-www-form-urlencoded', payload: '' },
  { 'content-type': 'application/x-www-form-urlencoded', payload: FORM },
  { 'content-type': 'application/json', payload: '{"amount":"25.00","currency":"USDT","confirmed":true}' },
];

export interface LiveMoney {
  /** A live invoice (Ethereum only: nothing to simulate) still waiting for its payment. */
  openId: string;
  /** A live invoice paid by a confirmed on-chain payment, with a refund awaiting the payer's address. */
  paidId: string;
  claimToken: string;
}

export async function liveMoney(t: TestApp): Promise<LiveMoney> {
  const m = await createMerchant(t.app, {
    payment_methods: [{ network: 'ethereum', currency: 'USDT' }],
    evm_xpub: TEST_XPUB,
  });
  const open = (await createInvoice(t.app, m, { amount: '25.00' })).json().data;
  const paid = (await createInvoice(t.app, m, { amount: '25.00' })).json().data;
  const payment = {
    kind: 'payment' as const,
    network: 'ethereum',
    currency: 'USDT',
    txHash: `0x${'ab'.repeat(32)}`,
    amount: money('25.00'),
    confirmed: true,
    accepted: true,
  };
  await observeOne(t.app.db, paid.id, payment, {
    now: t.app.clock(),
    publicBaseUrl: t.app.config.publicBaseUrl,
  });
  const refund = await t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${paid.id}/refunds`,
    headers: m.auth,
    payload: { amount: '10.00' },
  });
  const claimToken = new URL(refund.json().data.refund.claim_url).pathname.split('/').pop() as string;
  return { openId: open.id, paidId: paid.id, claimToken };
}

/** Money state: what no public page may change. */
export async function moneyState(app: FastifyInstance) {
  const db = app.db;
  return {
    invoices: await db
      .selectFrom('invoices')
      .select(['id', 'status', 'amount_paid', 'amount_after_close', 'amount_refunded', 'paid_at', 'tx_hash'])
      .select(['token_amount', 'failure_reason', 'paid_late'])
      .orderBy('id')
      .execute(),
    payments: await db.selectFrom('payments').selectAll().orderBy('tx_hash').execute(),
    refunds: await db.selectFrom('refunds').selectAll().orderBy('id').execute(),
    events: await db.selectFrom('events').selectAll().orderBy('id').execute(),
  };
}

/** The routes of a surface in the app's route table: `prefix` itself and everything under it. */
export const routesOf = (app: FastifyInstance, prefix: string) =>
  [...new Set(app.routeTable.map((r) => r.url))].filter((u) => u === prefix || u.startsWith(`${prefix}/`));

/** Every concrete path of a route: each path parameter takes each of its values. */
function pathsOf(route: string, values: Record<string, readonly string[]>): string[] {
  let paths = [route.replace('*', 'anything/else')];
  for (const [, name] of route.matchAll(/:([a-z_]+)/g)) {
    const options = values[name as string] ?? [`${name}_x`];
    paths = paths.flatMap((p) => options.map((v) => p.replace(`:${name}`, v)));
  }
  return paths;
}

let client = 0;
const nextAddress = () => {
  client++;
  return `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
};

/**
 * Tries every route of a surface; after each route the money state must equal what it was before,
 * and no answer is a 5xx. Returns the routes tried.
 */
export async function tryEveryRoute(t: TestApp, prefix: string, values: Record<string, readonly string[]>) {
  const before = await moneyState(t.app);
  const routes = routesOf(t.app, prefix);
  for (const route of routes) {
    for (const path of pathsOf(route, values)) {
      for (const method of METHODS) {
        const bodies = method === 'GET' || method === 'HEAD' ? [undefined] : BODIES;
        for (const query of QUERIES) {
          for (const body of bodies) {
            const res = await t.app.inject({
              method,
              url: `${path}${query}`,
              remoteAddress: nextAddress(),
              ...(body ? { headers: { 'content-type': body['content-type'] }, payload: body.payload } : {}),
            });
            expect(res.statusCode, `${method} ${path}${query}`).toBeLessThan(500);
          }
        }
      }
    }
    expect(await moneyState(t.app), `after ${route}`).toEqual(before);
  }
  return routes;
}

/**
 * Issue 31's first finding: a live invoice of 500.00 of a project that also lists the sandbox, as a
 * project and its invoices saved before `mixed_environments` may (the rule refuses to save it now, so
 * the rows are written as such a database holds them). Its page must not take sandbox money.
 */
export async function legacyMixedInvoice(t: TestApp): Promise<string> {
  const live = { network: 'ethereum', currency: 'USDT' };
  const sandbox = { network: 'sandbox', currency: 'USDT' };
  const m = await createMerchant(t.app, { payment_methods: [live], evm_xpub: TEST_XPUB });
  await t.database.db
    .updateTable('projects')
    .set({ payment_methods: JSON.stringify([live, sandbox]) })
    .where('id', '=', m.projectId)
    .execute();
  const inv = (await createInvoice(t.app, m, { amount: '500.00' })).json().data;
  const offered = [
    { ...live, pay_address: inv.pay_address, decimals: 6 },
    { ...sandbox, pay_address: 'sandbox_legacy', decimals: 6 },
  ];
  await t.database.db
    .updateTable('invoices')
    .set({ payment_methods: JSON.stringify(offered) })
    .where('id', '=', inv.id)
    .execute();
  return inv.id;
}
