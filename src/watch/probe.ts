import type { FastifyBaseLogger } from 'fastify';
import { FACTORY_ADDRESS } from '../forwarders/address.js';
import type { Network, NetworkRegistry } from '../networks/network.js';

/**
 * What this instance has learnt from each network's node since it started (contract §21): whether
 * the node has answered at all (a network nobody can read is not offered to payers), and on EVM
 * networks whether the forwarder factory's code is at its address (forwarders are offered only
 * there). Kept in memory: every instance that creates invoices asks for itself, at start and every
 * few minutes, so its answer never waits on another instance.
 */
export interface NodeProbe {
  answered(network: string): boolean;
  /** True: the factory's code is there; false: it is not; undefined: not known yet (or not EVM). */
  factory(network: string): boolean | undefined;
  /** Every node asked once, or the start-up wait over, whichever is first. */
  readonly started: Promise<void>;
  stop(): void;
}

export interface ProbeTiming {
  /** Between two checks of a node that answered (the factory may be deployed meanwhile). */
  intervalMs: number;
  /** Between two tries of a node that has not answered yet. */
  retryMs: number;
  /** How long start-up waits for the first answers before serving. */
  startWaitMs: number;
}

const DEFAULT_TIMING: ProbeTiming = { intervalMs: 5 * 60_000, retryMs: 10_000, startWaitMs: 10_000 };
const CALL_TIMEOUT_MS = 5_000;
const START_TRIES = 3;

export function startNodeProbe(
  networks: NetworkRegistry,
  log: FastifyBaseLogger,
  timing: Partial<ProbeTiming> = {},
): NodeProbe {
  const t = { ...DEFAULT_TIMING, ...timing };
  const answered = new Set<string>();
  const factory = new Map<string, boolean>();
  const timers = new Set<NodeJS.Timeout>();
  const failures = new Map<string, number>();
  let stopped = false;
  let settleStart: () => void = () => {};
  const enabled = networks.enabled();
  const startSettled = new Promise<void>((resolve) => {
    settleStart = resolve;
  });
  // Start-up waits for each node's answer, or for its third failed try in a row (a node that is down).
  const settle = () => {
    if (enabled.every((n) => answered.has(n.name) || (failures.get(n.name) ?? 0) >= START_TRIES))
      settleStart();
  };

  // A read-only check repeated on a timer: nothing is lost if a restart forgets it (it asks again).
  const check = async (n: Network): Promise<void> => {
    try {
      // Solana's JSON-RPC has its own methods: getSlot is its cheapest.
      await rpcCall(n, n.family === 'solana' ? 'getSlot' : 'eth_blockNumber', []);
      if (!answered.has(n.name)) log.info({ network: n.name }, 'node answered: network watched');
      answered.add(n.name);
      failures.delete(n.name);
      settle();
      if (n.family === 'evm') {
        const code = await rpcCall(n, 'eth_getCode', [FACTORY_ADDRESS, 'latest']);
        const present = typeof code === 'string' && /^0x[0-9a-f]*[1-9a-f][0-9a-f]*$/i.test(code);
        if (factory.get(n.name) !== present) {
          log.info({ network: n.name, factory: present }, 'forwarder factory checked');
        }
        factory.set(n.name, present);
      }
    } catch (err) {
      // The URL may hold a provider key: only the network and the kind of failure are logged.
      log.warn({ network: n.name, reason: (err as Error).name }, 'node did not answer');
      failures.set(n.name, (failures.get(n.name) ?? 0) + 1);
      settle();
    }
    if (stopped) return;
    // Every few minutes once known. While anything is still unknown, soon again: at once after a
    // failed call at first (a node that drops one call in ten is a node that answers: it must not be
    // left unwatched for retryMs because of one 502 at start), backing off to retryMs.
    const known = answered.has(n.name) && (n.family !== 'evm' || factory.has(n.name));
    const retry = Math.min(t.retryMs, 100 * 2 ** ((failures.get(n.name) ?? 1) - 1));
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        void check(n);
      },
      known ? t.intervalMs : retry,
    );
    timer.unref();
    timers.add(timer);
  };

  for (const n of enabled) void check(n);
  settle();
  const wait = new Promise<void>((resolve) => setTimeout(resolve, t.startWaitMs).unref());
  return {
    answered: (network) => answered.has(network),
    factory: (network) => factory.get(network),
    // Serving starts once every node has answered or failed its first tries, or the wait is over.
    started: Promise.race([startSettled, wait]),
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
    },
  };
}

/**
 * One JSON-RPC call over HTTP with fetch: no viem, which an API-only process never loads. A node
 * reached over WebSocket is asked through viem's client, loaded only then.
 */
async function rpcCall(n: Network, method: string, params: unknown[]): Promise<unknown> {
  try {
    return await rpcCallOnce(n, method, params);
  } catch (err) {
    // A kept-alive connection the node has closed meanwhile fails at once ("other side closed"):
    // a read is always safe to ask again, once, on a new connection.
    if (!(err instanceof TypeError)) throw err;
    return rpcCallOnce(n, method, params);
  }
}

async function rpcCallOnce(n: Network, method: string, params: unknown[]): Promise<unknown> {
  const url = n.rpcUrl as string;
  if (url.startsWith('ws')) return (await wsClient(n)).request({ method, params } as never);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...n.rpcHeaders },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  if (!res.ok) throw Object.assign(new Error(`HTTP ${res.status}`), { name: `HTTP ${res.status}` });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined || body.result === undefined) {
    throw Object.assign(new Error('JSON-RPC error'), { name: 'JsonRpcError' });
  }
  return body.result;
}

/** One WebSocket client per network, for the life of the process (as the watcher keeps its own). */
const wsClients = new Map<string, Promise<{ request(args: unknown): Promise<unknown> }>>();

function wsClient(n: Network) {
  let client = wsClients.get(n.name);
  if (!client) {
    client = import('viem').then(({ createPublicClient, webSocket }) =>
      createPublicClient({ transport: webSocket(n.rpcUrl, { retryCount: 0, timeout: CALL_TIMEOUT_MS }) }),
    );
    wsClients.set(n.name, client);
  }
  return client;
}
