import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import {
  COLLECTING_NETWORK,
  COLLECTOR_KEY,
  collectingEnv,
  confirmedDeposit,
  PAYOUT,
} from '../../test/collecting.js';
import { type DashboardUser, inviteAndAccept, merchantWithOwner, signIn } from '../../test/dashboard.js';
import { auditLog } from '../audit/audit.js';
import { offReason } from './views/collections.js';

/**
 * The Collections page (contract §16, §17): what waits per network, why collection may be off and what
 * to do, "Collect now" for owners (POST → redirect → GET), the history. The network's node is not
 * running and no worker runs: the page and the action take deposits; sending them is the collector's
 * (src/collections/collect.test.ts, on a real chain).
 */

let t: TestApp;
let m: Merchant;
let owner: DashboardUser;

beforeAll(async () => {
  t = await startTestApp({
    env: collectingEnv(),
  });
  ({ m, owner } = await merchantWithOwner(t.app, 'owner@collect.test', {
    network: COLLECTING_NETWORK,
    payout_address: PAYOUT,
  }));
});
afterAll(() => t.close());

const deposit = (amount: string) => confirmedDeposit(t, m, amount);

describe('the Collections page', () => {
  test('shows what waits, and Collect now takes it once: a reload of the result page collects nothing', async () => {
    await deposit('5.00');
    await deposit('2.50');
    const page = await owner.get('/dashboard/collections');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(PAYOUT);
    expect(page.body).toContain('Collectable: 7.50 USDT (2 deposits)');
    expect(page.body).toContain('>Collect now</button>');
    const sent = await owner.post('/dashboard/collections', { network: 'evmtest' });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe('/dashboard/collections?started=1');
    const result = await owner.follow(sent);
    expect(result.body).toContain('Collection started');
    expect(result.body).toContain('not sent yet');
    expect(result.body).toContain('Nothing to collect.');
    // The result page, loaded again, is a GET: it takes nothing.
    await owner.get('/dashboard/collections?started=1');
    const audit = (await auditLog(t.database.db, m.accountId, 100)).filter(
      (r) => r.action === 'collection.requested',
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_email).toBe('owner@collect.test');
    // Nothing left: the form is refused on the page, in words.
    const again = await owner.post('/dashboard/collections', { network: 'evmtest' });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('nothing to collect on evmtest');
  });

  test('a viewer sees the page but cannot collect', async () => {
    await inviteAndAccept(t.app, m.accountId, 'viewer@collect.test', 'viewer');
    const viewer = await signIn(t.app, 'viewer@collect.test');
    await deposit('1.00');
    const page = await viewer.get('/dashboard/collections');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Collectable: 1.00 USDT (1 deposit)');
    expect(page.body).not.toContain('>Collect now</button>');
    // As every owner-only form: not found for a viewer (guard.ts), and nothing is taken.
    const refused = await viewer.post('/dashboard/collections', { network: 'evmtest' });
    expect(refused.statusCode).toBe(404);
    expect((await viewer.get('/dashboard/collections')).body).toContain('Collectable: 1.00 USDT (1 deposit)');
  });
});

test('with no collector key, the page says collection is off and what the operator sets', async () => {
  const off = await startTestApp({
    env: collectingEnv({ collectorKey: false }),
  });
  try {
    const { owner: o } = await merchantWithOwner(off.app, 'owner@off.test', {
      network: 'evmtest',
      payout_address: PAYOUT,
    });
    const page = await o.get('/dashboard/collections');
    expect(page.body).toContain('Collection is off on EVM Test');
    expect(page.body).toContain('PAYDESK_COLLECTOR_KEY_EVMTEST');
    expect(page.body).not.toContain(COLLECTOR_KEY.slice(2, 12));
  } finally {
    await off.close();
  }
});

describe('why collection is off, in words for the owner', () => {
  const networks = () => t.app.config.networks;
  const state = (s: 'ok' | 'no_factory' | 'no_gas' | 'unreachable') => ({
    network: 'evmtest',
    address: '0x0000000000000000000000000000000000000001',
    state: s,
    balance: '0',
    checked_at: new Date(),
  });

  test.each([
    ['no_factory', 'npm run factory -- deploy --network evmtest'],
    ['no_gas', 'has no gas on EVM Test: send it some'],
    ['unreachable', 'does not answer the collector'],
  ] as const)('%s: %s', (s, words) => {
    expect(offReason(networks(), 'evmtest', true, state(s))).toContain(words);
  });

  test('nothing is said when the collector is fine', () => {
    expect(offReason(networks(), 'evmtest', true, state('ok'))).toBeUndefined();
    expect(offReason(networks(), 'evmtest', true, undefined)).toBeUndefined();
  });
});
