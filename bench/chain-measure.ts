/** The chain benchmark's measurement of one network (bench/chain.ts runs it per network). */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, parseAbiItem } from 'viem';
import type { LocalChain } from '../test/chain.js';
import { withClient } from './database.js';
import { type Child, freePort, startChild, tail } from './processes.js';

export interface Measured {
  blocks: number;
  catchUpMs: number;
  blocksPerSecond: number;
  transfersPerSecond: number;
  floorBlocksPerSecond: number;
  ratio: number;
  latencies: number;
  p50: number;
  p99: number;
  max: number;
  paid: number;
  expectedPaid: number;
}

export interface Run {
  chain: LocalChain;
  token: Address;
  url: string;
  env: Record<string, string | undefined>;
  network: string;
  confirmations: number;
  blocks: number;
  liveBlocks: number;
  perBlock: number;
  /** Every open invoice's address, in the network's form; the first (blocks + liveBlocks) × perBlock get paid. */
  addresses: string[];
  hex: (address: string) => Address;
  setUp(paydesk: Child): Promise<void>;
  stop(child: Child): Promise<void>;
}

const UNITS = 10_000_000n; // 10.00 of a 6-decimal token: each invoice's exact amount
const LOG = path.join(tmpdir(), 'paydesk-bench-chain.log');

export async function measure(r: Run): Promise<Measured> {
  const { chain } = r;
  let paydesk = await start(r.env);
  await r.setUp(paydesk);
  await settle(r);
  const pay = (b: number) => {
    const batch = r.addresses.slice(b * r.perBlock, (b + 1) * r.perBlock);
    return { batch, tx: chain.batchTransfer(r.token, batch.map(r.hex), Array(r.perBlock).fill(UNITS)) };
  };

  // Catch-up: the watcher is down while `blocks` blocks of transfers are mined.
  await r.stop(paydesk);
  const from = (await chain.blockNumber()) + 1n;
  for (let b = 0; b < r.blocks; b++) await pay(b).tx;
  const head = await chain.blockNumber();
  const floorMs = await timeGetLogs(chain.rpcUrl, r.token, from, head);
  paydesk = await start(r.env);
  const started = Date.now();
  await waitFor(async () => (await cursor(r.url, r.network)) >= head, 600_000);
  const catchUpMs = Date.now() - started;
  const blocks = Number(head - from + 1n);
  // Confirmations of a block are written in later steps than its payments: bury the backlog and let
  // them land first, so that the live figures measure detection alone.
  const buried = async (n: number) => {
    await chain.mine(r.confirmations - 1);
    await waitFor(async () => (await paidCount(r.url, r.network)) >= n * r.perBlock, 120_000);
  };
  await buried(r.blocks);

  // Live: one block of transfers at a time, the watcher following the head; each block is then
  // confirmed at the network's depth before the next, as the chain would in the meantime.
  await settle(r);
  await chain.setAutomine(false);
  const latencies: number[] = [];
  for (let b = r.blocks; b < r.blocks + r.liveBlocks; b++) {
    const { batch, tx } = pay(b);
    await tx;
    await chain.mine(1);
    const included = Date.now();
    await waitFor(async () => (await seenTimes(r.url, batch)).length === r.perBlock, 60_000);
    latencies.push(...(await seenTimes(r.url, batch)).map((t) => t - included));
    await buried(b + 1);
  }
  await chain.setAutomine(true);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  const expectedPaid = (r.blocks + r.liveBlocks) * r.perBlock;
  await r.stop(paydesk);
  return {
    blocks,
    catchUpMs,
    blocksPerSecond: (blocks * 1000) / catchUpMs,
    transfersPerSecond: (blocks * r.perBlock * 1000) / catchUpMs,
    floorBlocksPerSecond: (blocks * 1000) / floorMs,
    ratio: floorMs / catchUpMs,
    latencies: latencies.length,
    p50: pct(0.5),
    p99: pct(0.99),
    max: latencies.at(-1) ?? NaN,
    paid: await paidCount(r.url, r.network),
    expectedPaid,
  };
}

/**
 * Open invoices inserted in one statement (the API would take minutes for 100,000), with the
 * schedule lifecycle.schedule() gives a pending invoice: due at expiry, open 24 h past it.
 */
export async function seedOpenInvoices(
  url: string,
  projectId: string,
  network: string,
  addresses: string[],
  family: 'evm' | 'tron',
) {
  const prefix = `inv_bench${network.replaceAll('-', '').slice(0, 6)}`;
  // One method each (contract §15): the address is the invoice's, and its family's lookup column.
  await withClient(url, (c) =>
    c.query(
      `insert into invoices (id, project_id, status, amount, token_amount, currency, network, payment_methods, metadata,
                             payment_expires_at, due_at, open_until, pay_address, ${family}_address,
                             created_at, updated_at)
       select $4 || lpad(g::text, 16, '0'), $1, 'pending', 10, 10, 'USDT', $3,
              jsonb_build_array(jsonb_build_object('network', $3::text, 'currency', 'USDT', 'pay_address', a,
                                                   'decimals', 6)),
              '{}', now() + interval '7 days', now() + interval '7 days', now() + interval '8 days', a, a,
              now(), now()
       from unnest($2::text[]) with ordinality as x(a, g)`,
      [projectId, addresses, network, prefix],
    ),
  );
  await withClient(url, (c) => c.query('vacuum analyze invoices'));
}

async function start(env: Record<string, string | undefined>): Promise<Child> {
  const port = await freePort();
  return startChild({
    name: 'paydesk',
    args: ['--import', 'tsx', 'src/main.ts'],
    env: { ...env, PORT: String(port) },
    port,
    healthPath: '/v1/health',
    logPath: LOG,
  });
}

export async function cursor(url: string, network: string): Promise<bigint> {
  const r = await withClient(url, (c) =>
    c.query<{ n: string }>('select block_number as n from chain_cursors where network = $1', [network]),
  );
  return BigInt(r.rows[0]?.n ?? -1);
}

async function settle(r: Run) {
  const head = await r.chain.blockNumber();
  await waitFor(async () => (await cursor(r.url, r.network)) >= head, 60_000);
}

async function paidCount(url: string, network: string): Promise<number> {
  const r = await withClient(url, (c) =>
    c.query<{ n: number }>(`select count(*)::int as n from invoices where status = 'paid' and network = $1`, [
      network,
    ]),
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
    if (Date.now() > deadline) throw new Error(`timed out\n${tail(LOG)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
