import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { onPostgres, TEST_DATABASE_URL } from './database.js';
import {
  type DrillReport,
  drill,
  FAULTS,
  type FaultRig,
  RIG_ADMIN_TOKEN,
  startFaultRig,
} from './fault-drill.js';
import { privatePostgresAvailable } from './postgres-server.js';
import { callPaydesk, killAll, type PaydeskProcess, removeTempDirs } from './process.js';

/**
 * Contract §20 on PostgreSQL, for real: two Paydesk processes reach the database through a TCP proxy
 * that resets, cuts and black-holes their connections; the database's sessions are terminated; the
 * server itself is stopped at once and started again. Through every fault, under load: no process
 * exits, every create answers 201 or 503 (with Retry-After) within the bounds, health says 503 while
 * the database does not answer, and creates succeed again once it does. Each fault failed before the
 * fix (bench/faults.ts prints the drill of any commit).
 */
// Short bounds, so the drill takes seconds: the bounds themselves are what is under test.
const BOUNDS = { DATABASE_CONNECT_TIMEOUT_MS: '500', DATABASE_STATEMENT_TIMEOUT_MS: '1000' };
// A request waits at most: the queue (≤ the statement bound), then its write (≤ a connect and a
// statement bound). Slack for a loaded 2-core machine; an unbounded wait shows as the drill's 60 s.
const LONGEST_MS = 1000 + 500 + 1000 + 3000;
const HEALTH_LONGEST_MS = 1000 + 1500;
const SLOW = 300_000;

describe.skipIf(!onPostgres)('database faults (contract §20), two instances under load', () => {
  let rig: FaultRig;
  beforeAll(async () => {
    rig = await startFaultRig({ env: BOUNDS, fallbackUrl: TEST_DATABASE_URL });
  }, SLOW);
  afterAll(async () => {
    await rig?.close();
    await killAll();
    await removeTempDirs();
  });

  function expectSurvived(report: DrillReport) {
    const summary = JSON.stringify(report);
    expect(report.exited, summary).toBe(0);
    for (const p of rig.instances) expect(p.child.exitCode, summary).toBeNull();
    const answered = Object.keys(report.statuses);
    expect(
      answered.filter((s) => s !== '201' && s !== '503'),
      summary,
    ).toEqual([]);
    expect(report.wellFormed503, summary).toBe(true);
    expect(report.longestMs, summary).toBeLessThan(LONGEST_MS);
    expect(report.recoveryMs, summary).toBeDefined();
  }

  for (const fault of FAULTS) {
    test.skipIf(fault.needsPrivateServer && !privatePostgresAvailable)(
      fault.name,
      async () => {
        const report = await drill({
          name: fault.name,
          instances: rig.instances,
          secret: rig.secret,
          inject: () => fault.inject(rig),
          ...(fault.restore ? { restore: () => fault.restore?.(rig) } : {}),
        });
        expectSurvived(report);
        if (fault.restore) {
          // A fault that lasts: requests and health checks meanwhile answered 503, health within a second.
          expect(report.statuses[503], JSON.stringify(report)).toBeGreaterThan(0);
          expect(report.health[503], JSON.stringify(report)).toBeGreaterThan(0);
          expect(report.longestHealthMs, JSON.stringify(report)).toBeLessThan(HEALTH_LONGEST_MS);
        }
      },
      SLOW,
    );
  }

  test(
    'the background jobs resumed: a payment after the faults is delivered to the webhook',
    async () => {
      const events: string[] = [];
      const hooks = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          events.push(JSON.parse(body).type);
          res.writeHead(200).end();
        });
      });
      hooks.listen(0, '127.0.0.1');
      await once(hooks, 'listening');
      const [a] = rig.instances as [PaydeskProcess];
      const call = (url: string, body: object, token = RIG_ADMIN_TOKEN) =>
        callPaydesk(a.baseUrl, 'POST', url, token, body);
      await call(`/v1/admin/projects/${rig.projectId}/webhook-endpoints`, {
        url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`,
      });
      const invoice = await call('/v1/merchant/invoices', { amount: '3.00' }, rig.secret);
      await call(`/v1/admin/invoices/${invoice.id}/simulate-payment`, {});
      const deadline = Date.now() + 60_000;
      while (!events.includes('invoice.paid') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(events).toContain('invoice.paid');
      for (const p of rig.instances) expect(p.child.exitCode).toBeNull();
      await new Promise((r) => hooks.close(r));
    },
    SLOW,
  );
});
