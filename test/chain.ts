import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getContractAddress,
  type Hash,
  type Hex,
  http,
} from 'viem';
import { hardhat } from 'viem/chains';

// Hardhat refuses to run from outside the project that installs it, so the child's cwd is the repository.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = fileURLToPath(new URL('./chain/hardhat.config.cjs', import.meta.url));
const SERVER = fileURLToPath(new URL('./chain/server.cjs', import.meta.url));
const ARTIFACT = JSON.parse(readFileSync(new URL('./chain/TestToken.json', import.meta.url), 'utf8'));

/** TestToken's ABI (test/chain/TestToken.sol, compiled by scripts/compile-test-token.ts). */
export const TOKEN_ABI: Abi = ARTIFACT.abi;
const TOKEN_BYTECODE: Hex = ARTIFACT.bytecode;

function clients(rpcUrl: string, account: Address, chainId: number) {
  // cacheTime 0: viem otherwise serves a block number up to 4 s old, and tests mine blocks by hand.
  const transport = http(rpcUrl, { retryCount: 0 });
  const chain = defineChain({ ...hardhat, id: chainId });
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 }),
    wallet: createWalletClient({ chain, transport, account }),
    testClient: createTestClient({ chain, transport, mode: 'hardhat' }),
  };
}
type Clients = ReturnType<typeof clients>;

export interface LocalChain {
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly publicClient: Clients['publicClient'];
  /** Sends as Hardhat account #0 (the node holds the keys of all 20 accounts and signs for them). */
  readonly wallet: Clients['wallet'];
  readonly testClient: Clients['testClient'];
  /** Hardhat's 20 funded accounts; accounts[0] is the default sender. */
  readonly accounts: readonly Address[];
  /** Deploys a TestToken; its address is known even with automine off (from the sender's nonce). */
  deployToken(options: { symbol: string; decimals: number; name?: string }): Promise<Address>;
  /** Anyone may mint a TestToken; emits Transfer from the zero address. */
  mint(token: Address, to: Address, units: bigint): Promise<Hash>;
  transfer(token: Address, to: Address, units: bigint, from?: Address): Promise<Hash>;
  /** One transaction, one Transfer event per recipient; `from` needs the total balance. */
  batchTransfer(
    token: Address,
    to: readonly Address[],
    units: readonly bigint[],
    from?: Address,
  ): Promise<Hash>;
  mine(blocks?: number): Promise<void>;
  /** With automine off, transactions wait in the mempool until mine(). */
  setAutomine(on: boolean): Promise<void>;
  snapshot(): Promise<Hex>;
  /** Back to the snapshot: later blocks are gone (a reorg). Hardhat forgets an id once reverted to. */
  revert(id: Hex): Promise<void>;
  blockNumber(): Promise<bigint>;
  /** What the chain server printed, for a failing test's message. */
  output(): string;
  /** Stops the chain: its port refuses connections once this resolves. */
  stop(): Promise<void>;
}

const running = new Set<LocalChain>();

/** Starts a local Hardhat chain (in this process's chain server) and waits until it answers JSON-RPC. */
export async function startChain(options: { chainId?: number } = {}): Promise<LocalChain> {
  // Two nodes with their own chain ids are two networks (the registry refuses a shared id).
  const chainId = options.chainId ?? hardhat.id;
  const server = await chainServer();
  const { port } = await server.ask({ op: 'start', chainId });
  const rpcUrl = `http://127.0.0.1:${port}`;
  let stopped: Promise<unknown> | undefined;
  const stop = () => {
    stopped ??= server.ask({ op: 'stop', port });
    return stopped;
  };
  try {
    await waitForRpc(rpcUrl, chainId, server.output);
  } catch (error) {
    await stop();
    throw error;
  }
  const accounts = await createWalletClient({ transport: http(rpcUrl) }).getAddresses();
  const local: LocalChain = {
    ...chainActions({ rpcUrl, chainId, accounts, ...clients(rpcUrl, accounts[0] as Address, chainId) }),
    output: server.output,
    async stop() {
      running.delete(local);
      await stop();
    },
  };
  running.add(local);
  return local;
}

interface ChainServer {
  ask(request: { op: 'start'; chainId: number } | { op: 'stop'; port: number }): Promise<{ port: number }>;
  output(): string;
}
let server: Promise<ChainServer> | undefined;

/**
 * The one process that holds this process's chains (test/chain/server.cjs): Hardhat's runtime costs
 * seconds of CPU to load and a chain on it milliseconds, and a suite starts dozens of chains.
 */
function chainServer(): Promise<ChainServer> {
  server ??= forkChainServer();
  // A server that failed to start or went away is started afresh by the next call.
  server.catch(() => {
    server = undefined;
  });
  return server;
}

function forkChainServer(): Promise<ChainServer> {
  const child = fork(SERVER, [], {
    // Hardhat refuses to run from outside the project that installs it.
    cwd: ROOT,
    execArgv: [],
    // CI=true turns off Hardhat's telemetry, Sentry reports and banners, whatever the user's settings.
    env: { ...process.env, CI: 'true', HARDHAT_CONFIG: CONFIG, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  const keep = (chunk: string) => {
    out = (out + chunk).slice(-20_000);
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  // A process that dies must not leave its chains behind (the server also exits when this one goes).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const pending = new Map<number, { resolve(v: { port: number }): void; reject(e: Error): void }>();
  let next = 0;
  // The channel keeps this process alive only while it waits for an answer.
  const idle = () => {
    if (pending.size === 0) child.channel?.unref();
  };
  const gone = (why: string) => {
    server = undefined;
    process.off('exit', killOnExit);
    for (const p of pending.values()) p.reject(new Error(`chain server ${why}:\n${out}`));
    pending.clear();
  };
  child.once('exit', () => gone('exited'));
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?(): void })?.unref?.();
  return new Promise((resolve, reject) => {
    child.on('message', (m: { ready?: true; id?: number; port?: number; error?: string }) => {
      if (m.ready) {
        idle();
        resolve({
          ask(request) {
            const id = next++;
            child.channel?.ref();
            return new Promise((res, rej) => {
              pending.set(id, { resolve: res, reject: rej });
              child.send({ id, ...request });
            });
          },
          output: () => out,
        });
        return;
      }
      const p = pending.get(m.id as number);
      pending.delete(m.id as number);
      idle();
      if (m.error) p?.reject(new Error(m.error));
      else p?.resolve({ port: m.port as number });
    });
    child.once('exit', () => reject(new Error(`chain server exited before it was ready:\n${out}`)));
  });
}

/** Stops every chain still running: call from afterAll so a failed test leaves no node behind. */
export async function stopAllChains(): Promise<void> {
  await Promise.all([...running].map((c) => c.stop()));
}

async function waitForRpc(rpcUrl: string, chainId: number, output: () => string): Promise<void> {
  const probe = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await probe.getChainId()) === chainId) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`local chain did not answer within 60 s:\n${output()}`);
}

function chainActions(c: Clients & { rpcUrl: string; chainId: number; accounts: Address[] }) {
  const { publicClient, wallet, testClient } = c;
  const sender = c.accounts[0] as Address;
  let automine = true;
  const write = (token: Address, functionName: string, args: unknown[], from = sender, gas?: bigint) =>
    wallet.writeContract({ address: token, abi: TOKEN_ABI, functionName, args, account: from, gas });

  return {
    rpcUrl: c.rpcUrl,
    chainId: c.chainId,
    publicClient,
    wallet,
    testClient,
    accounts: Object.freeze(c.accounts),
    async deployToken({
      symbol,
      decimals,
      name = `Test ${symbol}`,
    }: {
      symbol: string;
      decimals: number;
      name?: string;
    }) {
      const nonce = await publicClient.getTransactionCount({ address: sender, blockTag: 'pending' });
      const hash = await wallet.deployContract({
        abi: TOKEN_ABI,
        bytecode: TOKEN_BYTECODE,
        args: [name, symbol, decimals],
      });
      if (!automine) return getContractAddress({ from: sender, nonce: BigInt(nonce) });
      const receipt = await publicClient.getTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error(`deploying ${symbol} created no contract`);
      return receipt.contractAddress;
    },
    mint: (token: Address, to: Address, units: bigint) => write(token, 'mint', [to, units]),
    transfer: (token: Address, to: Address, units: bigint, from?: Address) =>
      write(token, 'transfer', [to, units], from),
    batchTransfer: (token: Address, to: readonly Address[], units: readonly bigint[], from?: Address) =>
      // The node gives a transaction without a gas limit 2^24 gas, too little for ~600 fresh recipients;
      // ~26,000 gas each (a new balance slot and a log) plus headroom, under the 100M block limit.
      write(token, 'batchTransfer', [to, units], from, 100_000n + 30_000n * BigInt(to.length)),
    mine: (blocks = 1) => testClient.mine({ blocks }),
    async setAutomine(on: boolean) {
      await testClient.setAutomine(on);
      automine = on;
    },
    snapshot: () => testClient.snapshot(),
    async revert(id: Hex) {
      await testClient.revert({ id });
    },
    blockNumber: () => publicClient.getBlockNumber(),
  };
}
