/**
 * The chain watcher under load: 100,000 open invoices on PostgreSQL, a real Hardhat node, and blocks of
 * 1,000 token transfers each, every one of them to an open invoice's address (the worst case: every log
 * matches). The real Paydesk process runs its workers. Prints
 *   - catch-up throughput: blocks per second while the watcher works through a backlog, against the
 *     floor of merely reading the same blocks' logs from the node (eth_getLogs, one call per block);
 *   - live latency: from a block's inclusion (evm_mine returning) to invoice.payment_detected (the
 *     payment's seen_at, written in the transaction that records the event), p50 and p99.
 *   npx tsx bench/chain.ts   (BENCH_DATABASE_URL, BENCH_CHAIN_INVOICES, BENCH_CHAIN_BLOCKS to override)
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, getAddress, parseAbiItem } from 'viem';
import { TEST_XPUB } from '../test/chain/wallet.js';
import { startChain, stopAllChains } from '../test/chain.js';
import { benchDatabase, withClient } from './database.js';
import { type Child, freePort, killAllNow, startChild, stopAll, stopChild, tail } from './processes.js';
import { post } from './servers.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const OPEN = Number(process.env.BENCH_CHAIN_INVOICES ?? 100_000);
const BLOCKS = Number(process.env.BENCH_CHAIN_BLOCKS ?? 20);
const PER_BLOCK = 1000;
const LIVE_BLOCKS = 10;
const UNITS = 10_000_000n; // 10.00 of a 6-decimal token: each invoice's exact amount

async function main() {
  const chain = await startChain();
  const usdt = await chain.deployToken({ symbol: 'USDT', decimals: 6 });
  await chain.mint(usdt, chain.accounts[0] as Address, 10n ** 18n);
  const db = benchDatabase(BASE_URL);
  await db.recreate();
  const token = randomBytes(16).toString('hex');
  const env = {
    ...process.env,
    DATABASE_URL: db.url,
    PAYDESK_ADMIN_TOKEN: token,
    LOG_LEVEL: 'warn',
    PAYDESK_NETWORKS: JSON.stringify([
      {
        name: 'benchchain',
        chainId: chain.chainId,
        testnet: true,
        confirmations: 2,
        pollIntervalMs: 100,
        maxBlockRange: 5,
        tokens: { USDT: { address: usdt, decimals: 6 } },
      },
    ]),
    PAYDESK_RPC_BENCHCHAIN: chain.rpcUrl,
  };
  let paydesk = await start(env);
  const admin = (url: string, body: object) => post(paydesk.baseUrl + url, `Bearer ${token}`, body);
  const account = await admin('/v1/admin/accounts', { name: 'bench' });
  const project = await admin('/v1/admin/projects', {
    account_id: account.id,
    name: 'chain',
    network: 'benchchain',
    xpub: TEST_XPUB,
    invoice_ttl_seconds: 604_800,
  });

  // The open invoices: the first (BLOCKS + LIVE_BLOCKS) × 1,000 get paid, the rest only wait.
  const paidCount = (BLOCKS + LIVE_BLOCKS) * PER_BLOCK;
  const addresses = Array.from({ length: Math.max(OPEN, paidCount) }, () =>
    getAddress(`0x${randomBytes(20).toString('hex')}`),
  );
  await withClient(db.url, (c) =>
    c.query(
      `insert into invoices (id, project_id, status, amount, currency, network, metadata, payment_expires_at,
                             pay_address, created_at, updated_at)
       select 'inv_bench' || lpad(g::text, 20, '0'), $1, 'pending', 10, 'USDT', 'benchchain', '{}',
              now() + interval '7 days', a, now(), now()
       from unnest($2::text[]) with ordinality as x(a, g)`,
      [project.id, addresses],
    ),
  );
  await withClient(db.url, (c) => c.query('vacuum analyze invoices'));
  console.log(`seeded ${addresses.length} open invoices on benchchain`);
  await settleCursor(db.url, chain);

  // Catch-up: the watcher is down while BLOCKS blocks of 1,000 transfers are mined.
  await stopChild(paydesk);
  const from = (await chain.blockNumber()) + 1n;
  for (let b = 0; b < BLOCKS; b++) {
    await chain.batchTransfer(
      usdt,
      addresses.slice(b * PER_BLOCK, (b + 1) * PER_BLOCK),
      Array(PER_BLOCK).fill(UNITS),
    );
  }
  const head = await chain.blockNumber();
  const floorMs = await timeGetLogs(chain.rpcUrl, usdt, from, head);
  paydesk = await start(env);
  const started = Date.now();
  await waitFor(async () => (await cursor(db.url)) >= head, 600_000);
  const catchUpMs = Date.now() - started;
  const blocks = Number(head - from + 1n);

  // Live: one block of 1,000 transfers at a time, the watcher following the head.
  await settleCursor(db.url, chain);
  await chain.setAutomine(false);
  const latencies: number[] = [];
  for (let b = BLOCKS; b < BLOCKS + LIVE_BLOCKS; b++) {
    const batch = addresses.slice(b * PER_BLOCK, (b + 1) * PER_BLOCK);
    await chain.batchTransfer(usdt, batch, Array(PER_BLOCK).fill(UNITS));
    await chain.mine(1);
    const included = Date.now();
    await waitFor(async () => (await seenCount(db.url, batch)) === PER_BLOCK, 60_000);
    const seen = await seenTimes(db.url, batch);
    latencies.push(...seen.map((t) => t - included));
    await chain.mine(1); // confirms the block before the next one, as the chain would
  }
  await chain.mine(1);
  await chain.setAutomine(true);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  const paidNow = async () =>
    (
      await withClient(db.url, (c) =>
        c.query<{ n: number }>(`select count(*)::int as n from invoices where status = 'paid'`),
      )
    ).rows[0]?.n ?? 0;
  await waitFor(async () => (await paidNow()) >= paidCount, 60_000).catch(() => {});

  console.log(
    [
      `open invoices: ${addresses.length}; blocks of ${PER_BLOCK} transfers to open invoices`,
      `catch-up: ${blocks} blocks in ${(catchUpMs / 1000).toFixed(2)} s = ${((blocks * 1000) / catchUpMs).toFixed(2)} blocks/s ` +
        `(${((blocks * PER_BLOCK * 1000) / catchUpMs).toFixed(0)} transfers/s); ` +
        `floor (eth_getLogs alone): ${((blocks * 1000) / floorMs).toFixed(2)} blocks/s; ` +
        `ratio ${(floorMs / catchUpMs).toFixed(2)}×`,
      `inclusion → invoice.payment_detected over ${latencies.length} transfers in ${LIVE_BLOCKS} blocks: ` +
        `p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${latencies.at(-1)} ms`,
      `invoices paid: ${await paidNow()} (expected ${paidCount})`,
    ].join('\n'),
  );
  await stopAll();
  await stopAllChains();
  await db.release(true);
}

async function start(env: Record<string, string | undefined>): Promise<Child> {
  const port = await freePort();
  return startChild({
    name: 'paydesk',
    args: ['--import', 'tsx', 'src/main.ts'],
    env: { ...env, PORT: String(port) },
    port,
    healthPath: '/v1/health',
    logPath: path.join(tmpdir(), 'paydesk-bench-chain.log'),
  });
}

async function cursor(url: string): Promise<bigint> {
  const r = await withClient(url, (c) =>
    c.query<{ n: string }>(`select block_number as n from chain_cursors where network = 'benchchain'`),
  );
  return BigInt(r.rows[0]?.n ?? -1);
}

async function settleCursor(url: string, chain: { blockNumber(): Promise<bigint> }) {
  const head = await chain.blockNumber();
  await waitFor(async () => (await cursor(url)) >= head, 60_000);
}

async function seenCount(url: string, addresses: string[]): Promise<number> {
  const r = await withClient(url, (c) =>
    c.query<{ n: number }>(
      `select count(*)::int as n from payments p join invoices i on i.id = p.invoice_id where i.pay_address = any($1)`,
      [addresses],
    ),
  );
  return r.rows[0]?.n ?? 0;
}

async function seenTimes(url: string, addresses: string[]): Promise<number[]> {
  const r = await withClient(url, (c) =>
    c.query<{ seen_at: Date }>(
      `select p.seen_at from payments p join invoices i on i.id = p.invoice_id where i.pay_address = any($1)`,
      [addresses],
    ),
  );
  return r.rows.map((row) => row.seen_at.getTime());
}

/** The floor: reading the same blocks' Transfer logs from the node, one eth_getLogs per block. */
async function timeGetLogs(rpcUrl: string, token: Address, from: bigint, to: bigint): Promise<number> {
  const { createPublicClient, http } = await import('viem');
  const client = createPublicClient({ transport: http(rpcUrl) });
  const event = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
  const started = Date.now();
  for (let b = from; b <= to; b++) await client.getLogs({ address: token, event, fromBlock: b, toBlock: b });
  return Date.now() - started;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out\n${tail(path.join(tmpdir(), 'paydesk-bench-chain.log'))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

main().catch(async (err) => {
  console.error(err);
  killAllNow();
  await stopAllChains();
  process.exit(1);
});
