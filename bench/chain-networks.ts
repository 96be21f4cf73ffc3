/**
 * The chain watchers of one instance with 1, 3 and 5 networks watched at once (issue 22, contract
 * §15): one real Hardhat node per network (each with its own chain id), one Paydesk process watching
 * them all, 10,000 open invoices on PostgreSQL, each offering USDT on every network at its one EVM
 * address. Blocks of transfers to open invoices' addresses are mined on every network at the same time.
 * Prints, per network count:
 *   - catch-up: blocks per second of each network while the watchers work through a backlog mined
 *     while the instance was down (every network's backlog at once);
 *   - live latency: from a block's inclusion (evm_mine returning, on every network at once) to the
 *     payment's seen_at, p50 and p99 over every transfer of every network.
 *   npx tsx bench/chain-networks.ts   (BENCH_DATABASE_URL, BENCH_NETWORKS=1,3,5, BENCH_CHAIN_BLOCKS to override)
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, getAddress } from 'viem';
import { TEST_XPUB } from '../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../test/chain.js';
import { benchDatabase, withClient } from './database.js';
import { type Child, freePort, killAllNow, startChild, stopAll, stopChild, tail } from './processes.js';
import { post } from './servers.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const COUNTS = (process.env.BENCH_NETWORKS ?? '1,3,5').split(',').map(Number);
const OPEN = 10_000;
const BLOCKS = Number(process.env.BENCH_CHAIN_BLOCKS ?? 10);
const LIVE_BLOCKS = 5;
const PER_BLOCK = 100;
const DEPTH = 2;
const UNITS = 10_000_000n; // 10.00 of a 6-decimal token: each invoice's exact amount
const LOG = path.join(tmpdir(), 'paydesk-bench-chain-networks.log');

interface Network {
  name: string;
  chain: LocalChain;
  token: Address;
}

interface Result {
  count: number;
  perNetwork: Array<{ name: string; blocksPerSecond: number }>;
  p50: number;
  p99: number;
  max: number;
  latencies: number;
  paid: number;
  expectedPaid: number;
}

async function main() {
  const max = Math.max(...COUNTS);
  const chains = await Promise.all(
    Array.from({ length: max }, (_, i) => startChain({ chainId: 41_000 + i })),
  );
  const networks: Network[] = [];
  for (const [i, chain] of chains.entries()) {
    const token = await chain.deployToken({ symbol: 'USDT', decimals: 6 });
    await chain.mint(token, chain.accounts[0] as Address, 10n ** 18n);
    networks.push({ name: `bench-${i + 1}`, chain, token });
  }
  const results: Result[] = [];
  for (const count of COUNTS) results.push(await run(networks.slice(0, count)));
  console.log(report(results));
  await stopAll();
  await stopAllChains();
}

async function run(networks: Network[]): Promise<Result> {
  const db = benchDatabase(BASE_URL);
  await db.recreate();
  const adminToken = randomBytes(16).toString('hex');
  const env = {
    ...process.env,
    DATABASE_URL: db.url,
    PAYDESK_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    PAYDESK_NETWORKS: JSON.stringify(
      networks.map((n) => ({
        name: n.name,
        chainId: n.chain.chainId,
        testnet: true,
        confirmations: DEPTH,
        pollIntervalMs: 100,
        maxBlockRange: 5,
        tokens: { USDT: { address: n.token, decimals: 6 } },
      })),
    ),
    ...Object.fromEntries(
      networks.map((n) => [`PAYDESK_RPC_${n.name.toUpperCase().replace('-', '_')}`, n.chain.rpcUrl]),
    ),
  };
  let paydesk = await start(env);
  const admin = (p: string, body: object) => post(paydesk.baseUrl + p, `Bearer ${adminToken}`, body);
  const account = await admin('/v1/admin/accounts', { name: 'bench' });
  const project = await admin('/v1/admin/projects', {
    account_id: account.id,
    name: 'bench',
    currency: 'USDT',
    payment_methods: networks.map((n) => ({ network: n.name, currency: 'USDT' })),
    evm_xpub: TEST_XPUB,
    invoice_ttl_seconds: 604_800,
  });
  const addresses = Array.from({ length: OPEN }, () => getAddress(`0x${randomBytes(20).toString('hex')}`));
  await seed(db.url, project.id, networks, addresses);
  // Each network pays its own slice of the invoices: block b of network k pays PER_BLOCK of them.
  const slice = (k: number, b: number) => {
    const from = (k * (BLOCKS + LIVE_BLOCKS) + b) * PER_BLOCK;
    return addresses.slice(from, from + PER_BLOCK);
  };
  const pay = (k: number, b: number) => {
    const n = networks[k] as Network;
    return n.chain.batchTransfer(n.token, slice(k, b), Array(PER_BLOCK).fill(UNITS));
  };
  await settled(db.url, networks);

  // Catch-up: the instance is down while every network mines its backlog.
  await stopChild(paydesk);
  await Promise.all(
    networks.map(async (_, k) => {
      for (let b = 0; b < BLOCKS; b++) await pay(k, b);
    }),
  );
  const heads = await Promise.all(networks.map((n) => n.chain.blockNumber()));
  paydesk = await start(env);
  const started = Date.now();
  const doneAt = await Promise.all(
    networks.map(async (n, k) => {
      await waitFor(async () => (await cursor(db.url, n.name)) >= (heads[k] as bigint), 600_000);
      return Date.now();
    }),
  );
  const perNetwork = networks.map((n, k) => ({
    name: n.name,
    blocksPerSecond: (BLOCKS * 1000) / ((doneAt[k] as number) - started),
  }));
  await Promise.all(networks.map((n) => n.chain.mine(DEPTH)));
  await settled(db.url, networks);

  // Live: a block of transfers on every network at once, mined together; the watchers follow.
  await Promise.all(networks.map((n) => n.chain.setAutomine(false)));
  const latencies: number[] = [];
  for (let b = BLOCKS; b < BLOCKS + LIVE_BLOCKS; b++) {
    await Promise.all(networks.map((_, k) => pay(k, b)));
    const included = await Promise.all(
      networks.map(async (n) => {
        await n.chain.mine(1);
        return Date.now();
      }),
    );
    for (const [k] of networks.entries()) {
      const batch = slice(k, b);
      await waitFor(async () => (await seenTimes(db.url, batch)).length === PER_BLOCK, 60_000);
      latencies.push(...(await seenTimes(db.url, batch)).map((t) => t - (included[k] as number)));
    }
    await Promise.all(networks.map((n) => n.chain.mine(DEPTH)));
  }
  await Promise.all(networks.map((n) => n.chain.setAutomine(true)));
  const expectedPaid = networks.length * (BLOCKS + LIVE_BLOCKS) * PER_BLOCK;
  await waitFor(async () => (await paidCount(db.url)) >= expectedPaid, 120_000);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  const result = {
    count: networks.length,
    perNetwork,
    p50: pct(0.5),
    p99: pct(0.99),
    max: latencies.at(-1) ?? NaN,
    latencies: latencies.length,
    paid: await paidCount(db.url),
    expectedPaid,
  };
  await stopChild(paydesk);
  await db.release(true);
  return result;
}

/** Open invoices in one statement, each offering USDT on every network at its one EVM address. */
async function seed(url: string, projectId: string, networks: Network[], addresses: string[]) {
  const single = networks.length === 1 ? (networks[0] as Network).name : null;
  await withClient(url, (c) =>
    c.query(
      `insert into invoices (id, project_id, status, amount, currency, network, payment_methods, metadata,
                             payment_expires_at, due_at, open_until, pay_address, evm_address, evm_address_index,
                             created_at, updated_at)
       select 'inv_bench' || lpad(g::text, 16, '0'), $1, 'pending', 10, 'USDT', $3,
              (select jsonb_agg(jsonb_build_object('network', n, 'currency', 'USDT', 'pay_address', a, 'decimals', 6))
                 from unnest($4::text[]) as n),
              '{}', now() + interval '7 days', now() + interval '7 days', now() + interval '8 days',
              case when $3::text is null then null else a end, a, g, now(), now()
       from unnest($2::text[]) with ordinality as x(a, g)`,
      [projectId, addresses, single, networks.map((n) => n.name)],
    ),
  );
  await withClient(url, (c) => c.query('vacuum analyze invoices'));
}

function start(env: Record<string, string | undefined>): Promise<Child> {
  return freePort().then((port) =>
    startChild({
      name: 'paydesk',
      args: ['--import', 'tsx', 'src/main.ts'],
      env: { ...env, PORT: String(port) },
      port,
      healthPath: '/v1/health',
      logPath: LOG,
    }),
  );
}

async function cursor(url: string, network: string): Promise<bigint> {
  const r = await withClient(url, (c) =>
    c.query<{ n: string }>('select block_number as n from chain_cursors where network = $1', [network]),
  );
  return BigInt(r.rows[0]?.n ?? -1);
}

async function settled(url: string, networks: Network[]) {
  for (const n of networks) {
    const head = await n.chain.blockNumber();
    await waitFor(async () => (await cursor(url, n.name)) >= head, 60_000);
  }
}

async function paidCount(url: string): Promise<number> {
  const r = await withClient(url, (c) =>
    c.query<{ n: number }>(`select count(*)::int as n from invoices where status = 'paid'`),
  );
  return r.rows[0]?.n ?? 0;
}

async function seenTimes(url: string, addresses: string[]): Promise<number[]> {
  const r = await withClient(url, (c) =>
    c.query<{ seen_at: Date }>(
      `select p.seen_at from payments p join invoices i on i.id = p.invoice_id where i.evm_address = any($1)`,
      [addresses],
    ),
  );
  return r.rows.map((row) => row.seen_at.getTime());
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out\n${tail(LOG)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function report(results: Result[]): string {
  const lines = [
    `${OPEN} open invoices, each offering USDT on every network; blocks of ${PER_BLOCK} transfers; one instance`,
  ];
  for (const r of results) {
    const rates = r.perNetwork.map((n) => `${n.name} ${n.blocksPerSecond.toFixed(2)}`).join(', ');
    lines.push(
      `${r.count} network${r.count === 1 ? '' : 's'} watched at once`,
      `  catch-up, blocks/s per network (${BLOCKS} blocks each, all at once): ${rates}`,
      `  inclusion → detected over ${r.latencies} transfers: p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms`,
      `  invoices paid: ${r.paid} (expected ${r.expectedPaid})`,
    );
  }
  return lines.join('\n');
}

main().catch(async (err) => {
  console.error(err);
  killAllNow();
  await stopAllChains();
  process.exit(1);
});
