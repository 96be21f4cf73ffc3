import type { Network, NetworkSettings } from './network.js';

/** TronGrid's API key: sent as the TRON-PRO-API-KEY header, only to TronGrid's own hosts. */
export const TRONGRID_KEY_VARIABLE = 'PAYDESK_TRONGRID_API_KEY';
const TRONGRID_KEY_HEADER = 'TRON-PRO-API-KEY';
const RPC_PROTOCOLS = new Set(['http:', 'https:', 'ws:', 'wss:']);

/** `polygon-amoy` → `PAYDESK_RPC_POLYGON_AMOY`. */
export function rpcVariable(network: string): string {
  return `PAYDESK_RPC_${network.toUpperCase().replaceAll('-', '_')}`;
}

/**
 * A network's RPC endpoint and headers from the environment. Problems name the variable but never
 * echo its value: RPC URLs and API keys are secrets.
 */
export function withRpc(
  n: NetworkSettings,
  env: Record<string, string | undefined>,
  problems: string[],
): Network {
  const variable = rpcVariable(n.name);
  const value = env[variable] || undefined;
  const url = value === undefined ? undefined : parseUrl(value);
  if (value !== undefined && !url) {
    problems.push(`${variable} must be an http, https, ws or wss URL`);
  }
  if (n.family === 'tron' && url) problems.push(...tronRpcProblems(variable, url));
  // The Solana watcher polls over HTTP POST; a ws:// endpoint serves only subscriptions.
  if (n.family === 'solana' && url && !url.protocol.startsWith('http')) {
    problems.push(
      `${variable}: Paydesk reads Solana's JSON-RPC over http(s) (the ws endpoint serves subscriptions only)`,
    );
  }
  return { ...n, rpcUrl: value, rpcHeaders: url ? headersFor(n, url, env) : undefined };
}

function parseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return RPC_PROTOCOLS.has(url.protocol) && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

const isTronGrid = (url: URL) => url.hostname === 'trongrid.io' || url.hostname.endsWith('.trongrid.io');

/** java-tron serves its JSON-RPC over HTTP POST only, at /jsonrpc; the same host's root is its HTTP API. */
function tronRpcProblems(variable: string, url: URL): string[] {
  if (url.protocol === 'ws:' || url.protocol === 'wss:') {
    return [`${variable}: TRON nodes serve JSON-RPC over http(s) only`];
  }
  if (isTronGrid(url) && url.pathname.replace(/\/+$/, '') !== '/jsonrpc') {
    return [`${variable}: TronGrid's JSON-RPC is at the path /jsonrpc (https://api.trongrid.io/jsonrpc)`];
  }
  return [];
}

/**
 * TronGrid answers keyless callers at a low, shared rate (403 and a 30 s penalty past it). The key
 * goes to TronGrid's hosts only: another provider (or a node of your own) must never receive it.
 */
function headersFor(n: NetworkSettings, url: URL, env: Record<string, string | undefined>) {
  const key = env[TRONGRID_KEY_VARIABLE]?.trim();
  if (n.family !== 'tron' || !key || !isTronGrid(url)) return undefined;
  return Object.freeze({ [TRONGRID_KEY_HEADER]: key });
}

/** A PAYDESK_RPC_ variable that names no network is a typo that would silently leave a network off. */
export function strayRpcVariables(env: Record<string, string | undefined>, names: string[]): string[] {
  const known = new Set(names.map(rpcVariable));
  return Object.keys(env)
    .filter((k) => k.startsWith('PAYDESK_RPC_') && env[k] && !known.has(k))
    .map((k) => `${k} names no network (known: ${names.join(', ')})`);
}
