/**
 * Refunds under the chain watcher (issue 24): what open refunds cost a scan, and how soon a refund's
 * transfer is confirmed. A real Hardhat node, the real Paydesk process with its workers, PostgreSQL.
 *   - catch-up throughput, blocks of 1,000 token transfers each to open invoices' addresses: first with
 *     no refund at all, then with 10,000 ready refunds waiting on the same network (every transfer's
 *     recipient is then probed against the refunds' index too);
 *   - latency: from the block holding a refund's transfer being mined to the refund `sent`, and from
 *     the block that buries it (2 confirmations) being mined to `refund.confirmed` (confirmed_at).
 *   npx tsx bench/chain-refunds.ts   (BENCH_DATABASE_URL, BENCH_REFUNDS, BENCH_CHAIN_BLOCKS to override)
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, getAddress } from 'viem';
import { TEST_XPUB } from '../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../test/chain.js';
import { cursor, seedOpenInvoices } from './chain-measure.js';
import { benchDatabase, withClient } from './database.js';
import { type Child, freePort, killAllNow, startChild, stopAll, stopChild, tail } from './processes.js';
import { post } from './servers.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REFUNDS = Number(process.env.BENCH_REFUNDS ?? 10_000);
const BLOCKS = Number(process.env.BENCH_CHAIN_BLOCKS ?? 10);
const PER_BLOCK = 1000;
const LATENCY_SAMPLES = 20;
const UNITS = 10_000_000n; // 10.00 of a 6-decimal token
const LOG = path.join(tmpdir(), 'paydesk-bench-refunds.log');
const NETWORK = 'benchchain';

async function main() {
  const chain = await startChain();
  const db = benchDatabase(BASE_URL);
  await db.recreate();
  const token = await chain.deployToken({ symbol: 'USDT', decimals: 6 });
  await chain.mint(token, chain.accounts[0] as Address, 10n ** 18n);
  const adminToken = randomBytes(16).toString('hex');
  const env = {
    ...process.env,
    DATABASE_URL: db.url,
    PAYDESK_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    PAYDESK_NETWORKS: JSON.stringify([
      {
        name: NETWORK,
        chainId: chain.chainId,
        testnet: true,
        confirmations: 2,
        pollIntervalMs: 100,
        maxBlockRange: 5,
        tokens: { USDT: { address: token, decimals: 6 } },
      },
    ]),
    PAYDESK_RPC_BENCHCHAIN: chain.rpcUrl,
  };
  const random = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
  const perPhase = BLOCKS * PER_BLOCK;
  const invoices = Array.from({ length: 2 * perPhase }, random);

  let paydesk = await start(env);
  const admin = (p: string, body: object) => post(paydesk.baseUrl + p, `Bearer ${adminToken}`, body);
  const account = await admin('/v1/admin/accounts', { name: 'bench' });
  const project = await admin('/v1/admin/projects', {
    account_id: account.id,
    name: 'refunds',
    network: NETWORK,
    xpub: TEST_XPUB,
    invoice_ttl_seconds: 604_800,
  });
  await seedOpenInvoices(db.url, project.id, NETWORK, invoices, 'evm');
  await settle(chain, db.url);

  // A: no refunds; the transfers pay the first half of the invoices.
  await stopChild(paydesk);
  const a = await catchUp(chain, token, invoices.slice(0, perPhase), db.url, env);
  paydesk = a.paydesk;

  // B: the same number of ready refunds on the network, each to an address of its own; the transfers
  // pay the other half of the invoices.
  const refundAddresses = Array.from({ length: REFUNDS }, random);
  await seedReadyRefunds(db.url, project.id, refundAddresses);
  await stopChild(paydesk);
  const b = await catchUp(chain, token, invoices.slice(perPhase), db.url, env);
  paydesk = b.paydesk;

  // Latency of a refund's transfer.
  const sent: number[] = [];
  const confirmed: number[] = [];
  await chain.setAutomine(false);
  for (const address of refundAddresses.slice(0, LATENCY_SAMPLES)) {
    const tx = chain.transfer(token, address as Address, UNITS);
    await new Promise((r) => setTimeout(r, 50)); // the transaction reaches the node's mempool
    await chain.mine(1);
    await tx;
    const included = Date.now();
    await waitFor(async () => (await refundStatus(db.url, address)).status === 'sent', 60_000);
    sent.push(Date.now() - included);
    await chain.mine(1);
    const buried = Date.now();
    const at = await waitFor(async () => {
      const r = await refundStatus(db.url, address);
      return r.status === 'confirmed' ? r.confirmed_at : undefined;
    }, 60_000);
    confirmed.push((at as Date).getTime() - buried);
  }
  await chain.setAutomine(true);
  const stats = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    return `p50 ${s[Math.floor(s.length / 2)]} ms, max ${s.at(-1)} ms`;
  };
  console.log(
    [
      `blocks of ${PER_BLOCK} transfers to open invoices (${invoices.length} invoices seeded), EVM, 2 confirmations`,
      `  no refunds:           ${a.blocks} blocks in ${(a.ms / 1000).toFixed(2)} s = ${a.rate.toFixed(2)} blocks/s`,
      `  ${REFUNDS} ready refunds: ${b.blocks} blocks in ${(b.ms / 1000).toFixed(2)} s = ${b.rate.toFixed(2)} blocks/s (${((b.rate / a.rate) * 100).toFixed(0)} % of the first)`,
      `refund transfer, over ${LATENCY_SAMPLES} refunds:`,
      `  block mined → refund sent: ${stats(sent)}`,
      `  burying block mined → refund.confirmed (confirmed_at): ${stats(confirmed)}`,
    ].join('\n'),
  );
  await stopChild(paydesk);
  await stopAll();
  await stopAllChains();
  await db.release(true);
}

async function catchUp(chain: LocalChain, token: Address, paid: string[], url: string, env: object) {
  const from = (await chain.blockNumber()) + 1n;
  for (let i = 0; i < paid.length; i += PER_BLOCK) {
    const batch = paid.slice(i, i + PER_BLOCK) as Address[];
    await chain.batchTransfer(token, batch, Array(batch.length).fill(UNITS));
  }
  const head = await chain.blockNumber();
  const paydesk = await start(env);
  const started = Date.now();
  await waitFor(async () => (await cursor(url, NETWORK)) >= head, 600_000);
  const ms = Date.now() - started;
  const blocks = Number(head - from + 1n);
  return { paydesk, ms, blocks, rate: (blocks * 1000) / ms };
}

/** Ready refunds inserted in one statement, each of a paid-looking invoice of the project, after the cursor. */
async function seedReadyRefunds(url: string, projectId: string, addresses: string[]) {
  const after = await cursor(url, NETWORK);
  await withClient(url, (c) =>
    c.query(
      `insert into refunds (id, invoice_id, project_id, amount, currency, status, network, token, token_amount,
                            address, after_block, ready_at, created_at, updated_at)
       select 'ref_bench' || lpad(g::text, 16, '0'),
              (select id from invoices where project_id = $1 order by id limit 1),
              $1, 10, 'USDT', 'ready', $3, 'USDT', 10, a, $4, now(), now(), now()
       from unnest($2::text[]) with ordinality as x(a, g)`,
      [projectId, addresses, NETWORK, after.toString()],
    ),
  );
  await withClient(url, (c) => c.query('vacuum analyze refunds'));
}

async function refundStatus(url: string, address: string) {
  const r = await withClient(url, (c) =>
    c.query<{ status: string; confirmed_at: Date | null }>(
      'select status, confirmed_at from refunds where address = $1',
      [address],
    ),
  );
  return r.rows[0] ?? { status: 'none', confirmed_at: null };
}

async function start(env: object): Promise<Child> {
  const port = await freePort();
  return startChild({
    name: 'paydesk',
    args: ['--import', 'tsx', 'src/main.ts'],
    env: { ...(env as Record<string, string>), PORT: String(port) },
    port,
    healthPath: '/v1/health',
    logPath: LOG,
  });
}

async function settle(chain: LocalChain, url: string) {
  const head = await chain.blockNumber();
  await waitFor(async () => (await cursor(url, NETWORK)) >= head, 60_000);
}

async function waitFor<T>(check: () => Promise<T | false | undefined | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== false && v !== undefined && v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out\n${tail(LOG)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

main().catch(async (err) => {
  console.error(err);
  killAllNow();
  await stopAllChains();
  process.exit(1);
});
