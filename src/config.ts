import { createRequire } from 'node:module';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { DatabaseBounds } from './db/bounds.js';
import { collectorKeys } from './forwarders/collector-key.js';
import { relayerKeys } from './gasless/relayer-key.js';
import { parseTrustProxy, type TrustProxy, TrustProxyError } from './http/trust-proxy.js';
import { type MailSettings, MailSettingsError, mailSettings } from './mail/settings.js';
import type { NetworkRegistry } from './networks/network.js';
import { loadNetworks, NetworkConfigError } from './networks/registry.js';
import {
  DEFAULT_JUMP_PERCENT,
  RATE_SOURCE_LIST,
  type RateSettings,
  RateSettingsError,
  rateSettings,
  SPREAD_PERCENT,
} from './rates/settings.js';

/** 0 to 50, at most two decimals: what an invoice keeps in its numeric(4,2) `dust_percent`. */
const DUST_PERCENT = '^(50(\\.0{1,2})?|[1-4]?[0-9](\\.[0-9]{1,2})?)$';

/**
 * The one schema for the environment. It is parsed once at start-up and frozen; nothing else in the
 * code base reads `process.env`. Defaults follow contract §7.
 */
const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  // Checked here so that a wrong scheme is a one-line configuration error, not a failure inside the driver.
  DATABASE_URL: Type.String({
    pattern: '^(postgres|postgresql|pglite)://',
    default: 'pglite://./.paydesk/db',
  }),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  PAYDESK_ADMIN_TOKEN: Type.Optional(Type.String()),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 100 }),
  RATE_LIMIT_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 10 }),
  AUTH_FAILURE_LIMIT: Type.Integer({ minimum: 1, default: 20 }),
  // Contract §21: checked by parseTrustProxy (hops, or addresses and CIDR ranges).
  PAYDESK_TRUST_PROXY: Type.Optional(Type.String()),
  PAYDESK_ROLE: Type.Union([Type.Literal('all'), Type.Literal('api'), Type.Literal('worker')], {
    default: 'all',
  }),
  PAYDESK_WEBHOOK_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  DATABASE_WAIT_SECONDS: Type.Integer({ minimum: 0, maximum: 3600, default: 60 }),
  DATABASE_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 2000 }),
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 5000 }),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  HTTP_REQUEST_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 30 }),
  HTTP_HEADERS_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 10 }),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 65 }),
  // Contract §19: rate sources tried in this order; checked against the known names in loadConfig.
  PAYDESK_RATE_SOURCES: Type.String({ pattern: RATE_SOURCE_LIST, default: 'kraken,coinbase,ecb' }),
  PAYDESK_RATE_MAX_AGE_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 300 }),
  PAYDESK_RATE_MAX_SPREAD_PERCENT: Type.String({ pattern: SPREAD_PERCENT, default: '1' }),
  PAYDESK_RATE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 2000 }),
  // Contract §21: how far a lone fresh rate may move from the last one used before a second source must agree.
  PAYDESK_RATE_MAX_JUMP_PERCENT: Type.String({ pattern: SPREAD_PERCENT, default: DEFAULT_JUMP_PERCENT }),
  // Unset: the smaller of 10 and PAYDESK_RATE_MAX_AGE_SECONDS (rates/settings.ts).
  PAYDESK_RATE_CACHE_SECONDS: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
  PAYDESK_RATE_KRAKEN_URL: Type.String({ pattern: '^https?://', default: 'https://api.kraken.com' }),
  PAYDESK_RATE_COINBASE_URL: Type.String({ pattern: '^https?://', default: 'https://api.coinbase.com' }),
  PAYDESK_RATE_ECB_URL: Type.String({
    pattern: '^https?://',
    default: 'https://www.ecb.europa.eu/stats/eurofxref',
  }),
  // Contract §16: a project's collectable total (tokens at par, in USD) that starts a collection by itself.
  PAYDESK_COLLECT_MIN_USD: Type.String({ pattern: '^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,2})?$', default: '100' }),
  // Contract §22: a deposit worth less (at par, in USD) is collected only with a larger one of its forwarder.
  PAYDESK_COLLECT_MIN_DEPOSIT_USD: Type.String({
    pattern: '^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,2})?$',
    default: '1',
  }),
  // Contract §22: blocks a collection's transaction may wait unmined before it is signed again with higher fees.
  PAYDESK_COLLECT_REPLACE_BLOCKS: Type.Integer({ minimum: 1, maximum: 100_000, default: 20 }),
  // Contract §22: the most a collection offers per gas (max fee), in gwei; unset: no cap.
  PAYDESK_COLLECT_MAX_FEE_GWEI: Type.Optional(
    Type.String({ pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,9})?$' }),
  ),
  // Contract §21: a payment below this percent of the invoice's amount that does not complete it is dust.
  PAYDESK_DUST_PERCENT: Type.String({ pattern: DUST_PERCENT, default: '1' }),
  // Seals secrets kept in the database (TOTP secrets): any random string of 32 characters or more.
  // Not PAYDESK_SECRET_KEY: the SDK's examples name a merchant's API key so, and a shell may hold both.
  PAYDESK_ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 32, maxLength: 1000 })),
  // Contract §25: e-mail. Checked by mailSettings (scheme, host, a From with it); never echoed (a password).
  SMTP_URL: Type.Optional(Type.String()),
  PAYDESK_MAIL_FROM: Type.Optional(Type.String({ maxLength: 300 })),
  // Where Paydesk keeps its own files: the generated secret key and the first start's file.
  PAYDESK_STATE_DIR: Type.String({ minLength: 1, default: '.paydesk' }),
  LOG_FORMAT: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pretty')])),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

type Env = Static<typeof EnvSchema>;

const packageVersion: string = createRequire(import.meta.url)('../package.json').version;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly publicBaseUrl: string;
  /** `undefined` disables the admin API (it then answers 404). */
  readonly adminToken: string | undefined;
  readonly redisUrl: string | undefined;
  readonly rateLimit: { readonly max: number; readonly windowSeconds: number };
  readonly authFailureLimit: number;
  /** Which proxies may name the client in X-Forwarded-For (contract §21); `false`: the socket's address. */
  readonly trustProxy: TrustProxy;
  readonly logLevel: string;
  /** `json` lines, or `pretty` for a person at a terminal; unset: pretty when stdout is a terminal. */
  readonly logFormat: 'json' | 'pretty' | undefined;
  /** At start-up, how long to wait for PostgreSQL to answer before giving up. */
  readonly databaseWaitMs: number;
  /** Every wait on the database is bounded (contract §20): see src/db/bounds.ts. */
  readonly databaseBounds: DatabaseBounds;
  /** Connections each instance keeps to PostgreSQL (PGlite always has one). */
  readonly databasePoolMax: number;
  /** Node's HTTP server timeouts (contract §20): a slow body, slow headers, an idle keep-alive connection. */
  readonly http: {
    readonly requestTimeoutMs: number;
    readonly headersTimeoutMs: number;
    readonly keepAliveTimeoutMs: number;
  };
  /** `api` serves HTTP only, `worker` runs the background workers only, `all` both. */
  readonly role: 'all' | 'api' | 'worker';
  /** Allow webhook URLs on private and loopback addresses (and plain http to them): for local development. */
  readonly webhookAllowPrivate: boolean;
  /** Every chain network Paydesk knows (src/networks/registry.ts); those with an RPC URL are watched. */
  readonly networks: NetworkRegistry;
  /** Where fiat exchange rates come from and how far they are trusted (contract §19, src/rates). */
  readonly rates: RateSettings;
  /**
   * The collector key of a network (contract §16: PAYDESK_COLLECTOR_KEY, PAYDESK_COLLECTOR_KEY_<NAME>
   * over it), or undefined when collection is off there. A secret: never log it.
   */
  readonly collectorKey: (network: string) => `0x${string}` | undefined;
  /**
   * The relayer key of a network (contract §23: PAYDESK_RELAYER_KEY, else the collector key), which
   * submits payers' signed USDC transfers; undefined: no gasless payment there. A secret: never log it.
   */
  readonly relayerKey: (network: string) => `0x${string}` | undefined;
  /** A decimal string: the collectable total that starts a collection without "Collect now". */
  readonly collectMinUsd: string;
  /** A decimal string: a deposit worth less (USD) is collected only together with a larger one of its forwarder. */
  readonly collectMinDepositUsd: string;
  /** Blocks a collection's transaction may wait unmined before it is replaced with higher fees. */
  readonly collectReplaceBlocks: number;
  /** The most a collection's transaction offers per gas, in gwei (a decimal string); undefined: no cap. */
  readonly collectMaxFeeGwei: string | undefined;
  /** A decimal string, 0 to 50: the share of an invoice's amount below which a payment may be dust. */
  readonly dustPercent: string;
  /**
   * PAYDESK_ENCRYPTION_KEY, the key that seals secrets at rest; undefined: the key file in `stateDir`,
   * made on the first start (src/secrets/key.ts). A secret: never log it.
   */
  readonly secretKey: string | undefined;
  /** The folder of Paydesk's own files (the generated secret key, the first start's file). */
  readonly stateDir: string;
  /** SMTP_URL and PAYDESK_MAIL_FROM (contract §25, src/mail); undefined: no mail is queued or sent. */
  readonly mail: MailSettings | undefined;
  readonly version: string;
}

export class ConfigError extends Error {}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", so `FOO= npm start` behaves like leaving FOO out.
  const raw = Object.fromEntries(
    Object.keys(EnvSchema.properties)
      .map((k) => [k, source[k]])
      .filter(([, v]) => v !== undefined && v !== ''),
  );
  const env = Value.Convert(EnvSchema, Value.Default(EnvSchema, raw));
  if (!Value.Check(EnvSchema, env)) {
    const problems = [...Value.Errors(EnvSchema, env)].map((e) => `${e.path.slice(1)}: ${e.message}`);
    // One line, for a supervisor's log; it names the variables but never echoes a value (it may be a secret).
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const networks = networksFrom(source);
  const collectorKey = collectorKeysFrom(source, networks);
  return fromEnv(env, networks, ratesFrom(env), collectorKey, relayerKeysFrom(source, collectorKey));
}

function mailFrom(env: Env): MailSettings | undefined {
  try {
    return mailSettings(env.SMTP_URL, env.PAYDESK_MAIL_FROM);
  } catch (err) {
    if (err instanceof MailSettingsError) throw new ConfigError(`Invalid configuration: ${err.message}`);
    throw err;
  }
}

function trustProxyFrom(env: Env): TrustProxy {
  try {
    return parseTrustProxy(env.PAYDESK_TRUST_PROXY);
  } catch (err) {
    if (err instanceof TrustProxyError)
      throw new ConfigError(`Invalid configuration: PAYDESK_TRUST_PROXY: ${err.message}`);
    throw err;
  }
}

function collectorKeysFrom(source: Record<string, string | undefined>, networks: NetworkRegistry) {
  const problems: string[] = [];
  const names = networks
    .all()
    .filter((n) => n.family === 'evm')
    .map((n) => n.name);
  const keys = collectorKeys(source, names, problems);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return keys;
}

function relayerKeysFrom(source: Record<string, string | undefined>, collectorKey: Config['collectorKey']) {
  const problems: string[] = [];
  const keys = relayerKeys(source, collectorKey, problems);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return keys;
}

// The source names and the URLs need more than a pattern: a clear line, naming the variable only.
function ratesFrom(env: Env): RateSettings {
  try {
    return rateSettings({
      sources: env.PAYDESK_RATE_SOURCES,
      maxAgeSeconds: env.PAYDESK_RATE_MAX_AGE_SECONDS,
      maxSpreadPercent: env.PAYDESK_RATE_MAX_SPREAD_PERCENT,
      maxJumpPercent: env.PAYDESK_RATE_MAX_JUMP_PERCENT,
      timeoutMs: env.PAYDESK_RATE_TIMEOUT_MS,
      cacheSeconds: env.PAYDESK_RATE_CACHE_SECONDS,
      urls: {
        kraken: env.PAYDESK_RATE_KRAKEN_URL,
        coinbase: env.PAYDESK_RATE_COINBASE_URL,
        ecb: env.PAYDESK_RATE_ECB_URL,
      },
    });
  } catch (err) {
    if (err instanceof RateSettingsError) throw new ConfigError(`Invalid configuration: ${err.message}`);
    throw err;
  }
}

// PAYDESK_NETWORKS and the PAYDESK_RPC_<NAME> variables are named by the networks themselves, so the
// registry reads them (from the same source, once) rather than the schema above.
function networksFrom(source: Record<string, string | undefined>): NetworkRegistry {
  try {
    return loadNetworks(source);
  } catch (err) {
    if (err instanceof NetworkConfigError) throw new ConfigError(`Invalid configuration: ${err.message}`);
    throw err;
  }
}

function fromEnv(
  env: Env,
  networks: NetworkRegistry,
  rates: RateSettings,
  collectorKey: Config['collectorKey'],
  relayerKey: Config['relayerKey'],
): Config {
  const hostForUrl = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  return Object.freeze({
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://${hostForUrl}:${env.PORT}`).replace(/\/+$/, ''),
    adminToken: env.PAYDESK_ADMIN_TOKEN || undefined,
    redisUrl: env.REDIS_URL,
    rateLimit: Object.freeze({ max: env.RATE_LIMIT_MAX, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS }),
    authFailureLimit: env.AUTH_FAILURE_LIMIT,
    trustProxy: trustProxyFrom(env),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    databaseWaitMs: env.DATABASE_WAIT_SECONDS * 1000,
    databaseBounds: Object.freeze({
      connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    }),
    databasePoolMax: env.DATABASE_POOL_MAX,
    http: Object.freeze({
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      // Node refuses a headers timeout longer than the request timeout.
      headersTimeoutMs: Math.min(env.HTTP_HEADERS_TIMEOUT_SECONDS, env.HTTP_REQUEST_TIMEOUT_SECONDS) * 1000,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    }),
    role: env.PAYDESK_ROLE,
    webhookAllowPrivate: env.PAYDESK_WEBHOOK_ALLOW_PRIVATE,
    networks,
    rates,
    collectorKey,
    relayerKey,
    collectMinUsd: env.PAYDESK_COLLECT_MIN_USD,
    collectMinDepositUsd: env.PAYDESK_COLLECT_MIN_DEPOSIT_USD,
    collectReplaceBlocks: env.PAYDESK_COLLECT_REPLACE_BLOCKS,
    collectMaxFeeGwei: env.PAYDESK_COLLECT_MAX_FEE_GWEI,
    dustPercent: env.PAYDESK_DUST_PERCENT,
    secretKey: env.PAYDESK_ENCRYPTION_KEY,
    stateDir: env.PAYDESK_STATE_DIR,
    mail: mailFrom(env),
    version: packageVersion,
  });
}
