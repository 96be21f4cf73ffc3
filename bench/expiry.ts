/**
 * Expiry lag: 10,000 invoices expiring within the same minute on PostgreSQL, the real Paydesk process
 * running its workers; prints p50/p99/max seconds from payment_expires_at to the status change.
 *   npx tsx bench/expiry.ts          (BENCH_DATABASE_URL, BENCH_EXPIRY_INVOICES to override)
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchDatabase, withClient } from './database.js';
import { freePort, killAllNow, startChild, stopAll, tail } from './processes.js';
import { post } from './servers.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const COUNT = Number(process.env.BENCH_EXPIRY_INVOICES ?? 10_000);
const LEAD_SECONDS = 20;

async function main() {
  const db = benchDatabase(BASE_URL);
  await db.recreate();
  const port = await freePort();
  const token = randomBytes(16).toString('hex');
  const paydesk = await startChild({
    name: 'paydesk',
    args: ['--import', 'tsx', 'src/main.ts'],
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      PAYDESK_ADMIN_TOKEN: token,
      LOG_LEVEL: 'warn',
    },
    port,
    healthPath: '/v1/health',
    logPath: path.join(tmpdir(), 'paydesk-bench-expiry.log'),
  });
  const admin = (url: string, body: object) => post(paydesk.baseUrl + url, `Bearer ${token}`, body);
  const account = await admin('/v1/admin/accounts', { name: 'bench' });
  const project = await admin('/v1/admin/projects', { account_id: account.id, name: 'expiry' });

  // All deadlines fall within one minute that starts LEAD_SECONDS from now.
  await withClient(db.url, (c) =>
    c.query(
      `insert into invoices (id, project_id, status, amount, currency, network, metadata, payment_expires_at,
                             pay_address, created_at, updated_at)
       select 'inv_bench' || lpad(g::text, 20, '0'), $1, 'pending', 10, 'USDT', 'sandbox', '{}',
              now() + make_interval(secs => $2 + (g % 60000) / 1000.0), '0x' || md5(g::text), now(), now()
       from generate_series(1, $3) g`,
      [project.id, LEAD_SECONDS, COUNT],
    ),
  );
  console.log(`seeded ${COUNT} invoices expiring between +${LEAD_SECONDS}s and +${LEAD_SECONDS + 60}s`);

  const deadline = Date.now() + (LEAD_SECONDS + 60 + 60) * 1000;
  for (;;) {
    const left = await withClient(db.url, (c) =>
      c.query<{ n: string }>(
        `select count(*) as n from invoices where project_id = $1 and status = 'pending'`,
        [project.id],
      ),
    );
    if (Number(left.rows[0]?.n) === 0) break;
    if (Date.now() > deadline)
      throw new Error(`${left.rows[0]?.n} invoices never expired\n${tail(paydesk.logPath)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const stats = await withClient(db.url, (c) =>
    c.query<Record<string, number>>(
      `select percentile_cont(0.5) within group (order by lag) as p50,
              percentile_cont(0.99) within group (order by lag) as p99,
              max(lag) as max, count(*)::int as n,
              (select count(*)::int from events where type = 'invoice.expired') as events
       from (select extract(epoch from updated_at - payment_expires_at) as lag
             from invoices where project_id = $1) l`,
      [project.id],
    ),
  );
  const s = stats.rows[0] as Record<string, number>;
  console.log(
    `expiry lag over ${s.n} invoices: p50 ${Number(s.p50).toFixed(3)} s, p99 ${Number(s.p99).toFixed(3)} s, ` +
      `max ${Number(s.max).toFixed(3)} s; invoice.expired events: ${s.events}`,
  );
  await stopAll();
  await db.release(true);
}

main().catch(async (err) => {
  console.error(err);
  killAllNow();
  process.exit(1);
});
