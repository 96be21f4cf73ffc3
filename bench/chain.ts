/**
 * The chain watcher under load, for an EVM network and a TRON network in the same run, one after the
 * other on the same machine: a real Hardhat node (TRON's full nodes serve the same JSON-RPC; the TRON
 * network is the built-in `tron-nile` pointed at it, with T-addresses and its depth of 19), 100,000 open
 * invoices of the network on PostgreSQL, and blocks of 1,000 token transfers each, every one of them to
 * an open invoice's address (the worst case: every log matches). The real Paydesk process runs its
 * workers. Prints, per network:
 *   - catch-up throughput: blocks per second while the watcher works through a backlog, against the
 *     floor of merely reading the same blocks' logs from the node (eth_getLogs, one call per block);
 *   - live latency: from a block's inclusion (evm_mine returning) to invoice.payment_detected (the
 *     payment's seen_at, written in the transaction that records the event), p50 and p99.
 *   npx tsx bench/chain.ts   (BENCH_DATABASE_URL, BENCH_CHAIN_INVOICES, BENCH_CHAIN_BLOCKS to override)
 */
import { randomBytes } from 'node:crypto';
import { type Address, getAddress } from 'viem';
import { TEST_XPUB, TRON_TEST_XPUB } from '../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../test/chain.js';
import { asTron, fromTron } from '../test/chain-app.js';
import { cursor, type Measured, measure, seedOpenInvoices } from './chain-measure.js';
import { benchDatabase } from './database.js';
import { killAllNow, stopAll, stopChild } from './processes.js';
import { post } from './servers.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const OPEN = Number(process.env.BENCH_CHAIN_INVOICES ?? 100_000);
const BLOCKS = Number(process.env.BENCH_CHAIN_BLOCKS ?? 20);
const LIVE_BLOCKS = 10;
const PER_BLOCK = 1000;

/** One network under test: how it is configured, and how it writes an address. */
interface Subject {
  network: string;
  family: 'evm' | 'tron';
  label: string;
  xpub: string;
  confirmations: number;
  env: (chain: LocalChain, token: Address) => Record<string, string>;
  /** A deposit address in the network's form, from 20 random bytes. */
  address: (bytes: Buffer) => string;
  /** The 20-byte hex the chain credits. */
  hex: (address: string) => Address;
}

const SUBJECTS: Subject[] = [
  {
    network: 'benchchain',
    family: 'evm',
    label: 'EVM (benchchain, 2 confirmations)',
    xpub: TEST_XPUB,
    confirmations: 2,
    env: (chain, token) => ({
      PAYDESK_NETWORKS: JSON.stringify([
        {
          name: 'benchchain',
          chainId: chain.chainId,
          testnet: true,
          confirmations: 2,
          pollIntervalMs: 100,
          maxBlockRange: 5,
          tokens: { USDT: { address: token, decimals: 6 } },
        },
      ]),
      PAYDESK_RPC_BENCHCHAIN: chain.rpcUrl,
    }),
    address: (bytes) => getAddress(`0x${bytes.toString('hex')}`),
    hex: (address) => address as Address,
  },
  {
    network: 'tron-nile',
    family: 'tron',
    label: 'TRON (tron-nile, 19 confirmations)',
    xpub: TRON_TEST_XPUB,
    confirmations: 19,
    env: (chain, token) => ({
      PAYDESK_NETWORKS: JSON.stringify([
        {
          name: 'tron-nile',
          pollIntervalMs: 100,
          maxBlockRange: 5,
          tokens: { USDT: { address: asTron(token), decimals: 6 } },
        },
      ]),
      PAYDESK_RPC_TRON_NILE: chain.rpcUrl,
    }),
    address: (bytes) => asTron(`0x${bytes.toString('hex')}`),
    hex: fromTron,
  },
];

async function main() {
  const chain = await startChain();
  const db = benchDatabase(BASE_URL);
  await db.recreate();
  const results: Array<[Subject, Measured]> = [];
  for (const subject of SUBJECTS) {
    const token = await chain.deployToken({ symbol: 'USDT', decimals: 6 });
    await chain.mint(token, chain.accounts[0] as Address, 10n ** 18n);
    results.push([subject, await run(subject, chain, token, db.url)]);
  }
  console.log(report(results));
  await stopAll();
  await stopAllChains();
  await db.release(true);
}

async function run(subject: Subject, chain: LocalChain, token: Address, url: string): Promise<Measured> {
  const adminToken = randomBytes(16).toString('hex');
  const env = {
    ...process.env,
    DATABASE_URL: url,
    PAYDESK_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    ...subject.env(chain, token),
  };
  const paid = (BLOCKS + LIVE_BLOCKS) * PER_BLOCK;
  const addresses = Array.from({ length: Math.max(OPEN, paid) }, () => subject.address(randomBytes(20)));
  return measure({
    chain,
    token,
    url,
    env,
    network: subject.network,
    confirmations: subject.confirmations,
    blocks: BLOCKS,
    liveBlocks: LIVE_BLOCKS,
    perBlock: PER_BLOCK,
    addresses,
    hex: subject.hex,
    async setUp(paydesk) {
      const admin = (path: string, body: object) =>
        post(paydesk.baseUrl + path, `Bearer ${adminToken}`, body);
      const account = await admin('/v1/admin/accounts', { name: 'bench' });
      const project = await admin('/v1/admin/projects', {
        account_id: account.id,
        name: subject.network,
        network: subject.network,
        xpub: subject.xpub,
        invoice_ttl_seconds: 604_800,
      });
      await seedOpenInvoices(url, project.id, subject.network, addresses, subject.family);
      console.log(
        `${subject.network}: seeded ${addresses.length} open invoices; cursor at ${await cursor(url, subject.network)}`,
      );
    },
    stop: stopChild,
  });
}

function report(results: Array<[Subject, Measured]>): string {
  const open = Math.max(OPEN, (BLOCKS + LIVE_BLOCKS) * PER_BLOCK);
  const lines = [`open invoices per network: ${open}; blocks of ${PER_BLOCK} transfers to open invoices`];
  for (const [subject, r] of results) {
    lines.push(
      `${subject.label}`,
      `  catch-up: ${r.blocks} blocks in ${(r.catchUpMs / 1000).toFixed(2)} s = ${r.blocksPerSecond.toFixed(2)} blocks/s ` +
        `(${r.transfersPerSecond.toFixed(0)} transfers/s); floor (eth_getLogs alone): ${r.floorBlocksPerSecond.toFixed(2)} blocks/s; ` +
        `ratio ${r.ratio.toFixed(2)}×`,
      `  inclusion → invoice.payment_detected over ${r.latencies} transfers in ${LIVE_BLOCKS} blocks: ` +
        `p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms`,
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
