import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { BUILT_IN_NETWORKS } from './builtin.js';
import { FAMILIES, FAMILY } from './family.js';
import {
  type Currency,
  type Network,
  type NetworkRegistry,
  type NetworkSettings,
  SANDBOX,
} from './network.js';
import { strayRpcVariables, withRpc } from './rpc-settings.js';

export class NetworkConfigError extends Error {}

const ADDRESS = Type.String({
  pattern: '^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$',
  description: '0x and 40 hex digits, a TRON address T…, or a Solana mint (base58)',
});
const Eip3009Schema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, description: "the token's EIP-712 domain name" }),
    version: Type.String({ minLength: 1, maxLength: 16, description: "the token's EIP-712 domain version" }),
  },
  { additionalProperties: false },
);
const TokenSchema = Type.Object(
  {
    address: Type.Optional(ADDRESS),
    /** A Solana token is written by its mint (contract §24); `address` is taken too. */
    mint: Type.Optional(ADDRESS),
    decimals: Type.Integer({ minimum: 0, maximum: 36 }),
    eip3009: Type.Optional(Eip3009Schema),
  },
  { additionalProperties: false },
);

/** One entry of PAYDESK_NETWORKS. Only `name` is always required: an entry may just retune a built-in. */
const EntrySchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9-]{1,32}$', description: '1 to 32 of a-z, 0-9 and -' }),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    family: Type.Optional(Type.Union(FAMILIES.map((f) => Type.Literal(f)))),
    chainId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    testnet: Type.Optional(Type.Boolean()),
    confirmations: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    pollIntervalMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
    maxBlockRange: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    explorer: Type.Optional(Type.String({ pattern: '^https?://', description: 'an http(s) URL prefix' })),
    tokens: Type.Optional(
      Type.Object(
        { USDT: Type.Optional(TokenSchema), USDC: Type.Optional(TokenSchema) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
type Entry = Static<typeof EntrySchema>;

/** Defaults for a network the operator adds; chainId, testnet, confirmations and tokens have none. */
const NEW_NETWORK_DEFAULTS = { pollIntervalMs: 2000, maxBlockRange: 500 };

export { rpcVariable } from './rpc-settings.js';

/**
 * Built-in networks, then PAYDESK_NETWORKS over them, then PAYDESK_RPC_* URLs. Throws
 * NetworkConfigError naming every problem; messages never echo an RPC URL (it may hold an API key).
 */
export function loadNetworks(env: Record<string, string | undefined>): NetworkRegistry {
  const settings = new Map(BUILT_IN_NETWORKS.map((n) => [n.name, n]));
  const problems: string[] = [];
  const entries = parseEntries(env.PAYDESK_NETWORKS);
  entries.forEach((raw, i) => {
    const where = `PAYDESK_NETWORKS[${i}]`;
    const merged = applyEntry(settings, raw, where, problems);
    if (merged) settings.set(merged.name, merged);
  });
  const seenChains = new Map<number, string>();
  for (const n of settings.values()) {
    if (n.family === 'solana') continue; // no chain id to share
    const other = seenChains.get(n.chainId);
    if (other) problems.push(`networks "${other}" and "${n.name}" share chainId ${n.chainId}`);
    seenChains.set(n.chainId, n.name);
  }
  const networks = [...settings.values()].map((n) => withRpc(n, env, problems));
  // Names of refused entries count too: their RPC variable is not the problem to report.
  const declared = entries.map((e) => (e as Entry | null)?.name).filter((n) => typeof n === 'string');
  problems.push(...strayRpcVariables(env, [...settings.keys(), ...declared]));
  if (problems.length > 0)
    throw new NetworkConfigError(`Invalid network configuration: ${problems.join('; ')}`);
  return registry(networks);
}

function parseEntries(text: string | undefined): unknown[] {
  if (text === undefined || text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new NetworkConfigError(`PAYDESK_NETWORKS is not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(value))
    throw new NetworkConfigError('PAYDESK_NETWORKS must be a JSON array of networks');
  return value;
}

function applyEntry(
  settings: Map<string, NetworkSettings>,
  raw: unknown,
  where: string,
  problems: string[],
): NetworkSettings | undefined {
  if (!Value.Check(EntrySchema, raw)) {
    const name = (raw as Entry | null)?.name;
    const named = typeof name === 'string' ? ` (${JSON.stringify(name.slice(0, 40))})` : '';
    for (const e of Value.Errors(EntrySchema, raw)) {
      const field = e.path.slice(1).replaceAll('/', '.') || 'entry';
      const hint = e.schema.description ? ` (${e.schema.description})` : '';
      problems.push(`${where}${named}: ${field}: ${e.message}${hint}`);
    }
    return undefined;
  }
  const at = `${where} ("${raw.name}")`;
  const before = problems.length;
  if (raw.name === 'sandbox')
    problems.push(`${at}: "sandbox" is the simulated network and cannot be configured`);
  const base = settings.get(raw.name);
  if (base && raw.family !== undefined && raw.family !== base.family) {
    problems.push(`${at}: family of built-in network "${raw.name}" is ${base.family} and cannot change`);
  }
  const family = FAMILY[raw.family ?? base?.family ?? 'evm'];
  for (const [currency, given] of Object.entries(raw.tokens ?? {})) {
    const token = { ...given, address: tokenAddress(given) };
    if (token.address === undefined) {
      const which = family.name === 'solana' ? 'mint' : 'address';
      problems.push(`${at}: tokens.${currency} needs its ${which}`);
    } else if (!family.isAddress(token.address)) {
      problems.push(`${at}: tokens.${currency}.address ${family.addressProblem}`);
    }
    // EIP-3009 is an EVM token's (contract §23): signed transfers need EIP-712 and an EVM chain id.
    if (token.eip3009 && family.name !== 'evm') {
      problems.push(`${at}: tokens.${currency}.eip3009 is only for tokens of EVM networks`);
    }
  }
  if (family.name === 'solana' && raw.chainId !== undefined) {
    problems.push(`${at}: a Solana network has no chainId`);
  }
  if (base && raw.chainId !== undefined && raw.chainId !== base.chainId) {
    problems.push(`${at}: chainId of built-in network "${raw.name}" is ${base.chainId} and cannot change`);
  }
  if (!base) {
    // A Solana network counts no blocks (finalized is final) and has no chain id.
    const needed = family.name === 'solana' ? SOLANA_NEEDS : NEEDS;
    const missing = needed.filter((f) => raw[f] === undefined);
    if (missing.length > 0) problems.push(`${at}: a new network needs ${missing.join(', ')}`);
  }
  return problems.length === before ? merge(base, raw) : undefined;
}

const NEEDS = ['chainId', 'testnet', 'confirmations', 'tokens'] as const;
const SOLANA_NEEDS = ['testnet', 'tokens'] as const;

const tokenAddress = (t: { address?: string; mint?: string }) => t.mint ?? t.address;

function merge(base: NetworkSettings | undefined, entry: Entry): NetworkSettings {
  const family = FAMILY[entry.family ?? base?.family ?? 'evm'];
  const tokens = { ...base?.tokens };
  for (const [currency, token] of Object.entries(entry.tokens ?? {})) {
    // Written the one way the family shows it (EIP-55 on EVM), whatever case the operator used.
    const address = family.address(family.accountId(tokenAddress(token) as string));
    // The built-in domain stays only with the built-in contract: another contract signs under its own.
    const before = base?.tokens[currency as Currency];
    const eip3009 = token.eip3009 ?? (before?.address === address ? before.eip3009 : undefined);
    tokens[currency as Currency] = { address, decimals: token.decimals, ...(eip3009 ? { eip3009 } : {}) };
  }
  return {
    name: entry.name,
    label: entry.label ?? base?.label ?? entry.name,
    family: family.name,
    chainId: entry.chainId ?? base?.chainId ?? 0,
    testnet: entry.testnet ?? base?.testnet ?? false,
    confirmations: entry.confirmations ?? base?.confirmations ?? (family.name === 'solana' ? 1 : 0),
    pollIntervalMs: entry.pollIntervalMs ?? base?.pollIntervalMs ?? NEW_NETWORK_DEFAULTS.pollIntervalMs,
    maxBlockRange: entry.maxBlockRange ?? base?.maxBlockRange ?? NEW_NETWORK_DEFAULTS.maxBlockRange,
    explorer: entry.explorer ?? base?.explorer,
    tokens,
  };
}

function registry(networks: Network[]): NetworkRegistry {
  const frozen = networks.map((n) =>
    Object.freeze({
      ...n,
      tokens: Object.freeze(
        Object.fromEntries(
          Object.entries(n.tokens).map(([c, t]) => [
            c,
            Object.freeze(t.eip3009 ? { ...t, eip3009: Object.freeze({ ...t.eip3009 }) } : t),
          ]),
        ),
      ),
    }),
  );
  const byName = new Map(frozen.map((n) => [n.name, n]));
  const all = Object.freeze(frozen);
  const enabled = Object.freeze(frozen.filter((n) => n.rpcUrl !== undefined));
  return Object.freeze({
    get: (name: string) => byName.get(name),
    all: () => all,
    enabled: () => enabled,
    token: (network: string, currency: Currency) => {
      const tokens = byName.get(network)?.tokens;
      return tokens && Object.hasOwn(tokens, currency) ? tokens[currency] : undefined;
    },
    label: (name: string) => (name === SANDBOX ? 'Sandbox' : (byName.get(name)?.label ?? name)),
    transactionUrl: (network: string, txHash: string) => {
      const explorer = byName.get(network)?.explorer;
      if (explorer === undefined) return undefined;
      const tx = encodeURIComponent(txHash);
      return explorer.includes('{tx}') ? explorer.replace('{tx}', tx) : `${explorer}${tx}`;
    },
  });
}
