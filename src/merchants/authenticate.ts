import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Notifier } from '../db/notifier.js';
import type { Database } from '../db/schema.js';
import { ApiError, type ErrorCode } from '../http/errors.js';
import { type RateLimitStore, rateLimitedError } from '../http/rate-limit.js';
import type { PaymentMethod } from '../networks/methods.js';
import { apiKeyDigest, parseAuthorization } from './api-key.js';
import { AUTH_CHANNEL, findKeyByHash, type KeyVerification, touchApiKey } from './repository.js';

/** Who is calling, once the key checks out: everything a merchant route needs about its project. */
export interface Principal {
  keyId: string;
  projectId: string;
  /** The invoice currency: USD, USDT or USDC. */
  currency: string;
  /** The first method's network. */
  network: string;
  /** What the project's invoices may be paid with, in the page's order (contract §15). */
  methods: readonly PaymentMethod[];
  /** The underpayment tolerance, numeric(4,2) as a decimal string. */
  tolerancePercent: string;
  invoiceTtlSeconds: number;
  /** Where EVM deposits are collected to; set, EVM deposit addresses are forwarders (contract §16). */
  payoutAddress: string | null;
  /** The project's Solana wallet (contract §24): where its invoices' Solana methods pay. */
  solanaAddress: string | null;
  /** Whether EVM deposit addresses can be derived from an xpub (where forwarders cannot be offered). */
  hasEvmXpub: boolean;
  /**
   * Re-reads the key and throws the auth error it now deserves (revoked, deactivated). Operations run
   * their SQL guarded by `liveKey(keyId)` and call this when the guard fails, so a principal served
   * from the cache can never act after a revocation has committed.
   */
  confirm(): Promise<void>;
}

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;
const FAILURE_WINDOW_MS = 60_000;

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  API_KEY_REQUIRED: 'Send your secret key as "Authorization: Bearer svc_secret_…"',
  API_KEY_INVALID_FORMAT: 'The Authorization header must be "Bearer svc_secret_" followed by your key',
  API_KEY_INVALID: 'The API key is not valid',
  API_KEY_REVOKED: 'The API key has been revoked; create a new one',
  ACCOUNT_NOT_ACTIVE: 'The account of this API key is not active',
  PROJECT_NOT_ACTIVE: 'The project of this API key is not active',
};

export function authError(code: ErrorCode): ApiError {
  const headers: Record<string, string> = code.startsWith('API_KEY') ? { 'WWW-Authenticate': 'Bearer' } : {};
  return new ApiError(code, MESSAGES[code] ?? 'Authentication failed', { headers });
}

interface CacheEntry {
  principal: Principal;
  expiresAt: number;
  lastUsedAt: number;
}

export interface Authenticator {
  /** Resolves the principal of a request or throws the contract's auth error (§3, in its order). */
  authenticate(authorization: string | undefined, clientAddress: string): Promise<Principal>;
  /** Refuses a client address that failed too often (RATE_LIMITED), before any lookup. */
  guardFailures(clientAddress: string): Promise<void>;
  /** Counts a failed authentication against a client address. */
  recordFailure(clientAddress: string): Promise<void>;
}

/**
 * Verified keys are cached in-process for speed, without giving up "revocation holds for the very
 * next request on every instance" (contract §3): the cache only says *who* is calling. Whether the key
 * is still live is checked by the operation's own SQL statement, which carries the `liveKey` guard
 * (merchants/repository.ts), in the same snapshot as the work: no extra round trip, and no window
 * between a revocation's commit and its effect. LISTEN/NOTIFY clears the cache on every instance when
 * keys, projects or accounts change, so project settings are fresh too; while the listening
 * connection is down the cache is bypassed.
 */
export async function createAuthenticator(deps: {
  db: Kysely<Database>;
  notifier: Notifier;
  limiter: RateLimitStore;
  failureLimit: number;
  clock: () => Date;
}): Promise<Authenticator> {
  const now = () => deps.clock().getTime();
  const cache = new Map<string, CacheEntry>();
  const cacheUsable = () => deps.notifier.healthy;
  let generation = 0;
  const forget = () => {
    generation++;
    cache.clear();
  };
  await deps.notifier.listen(AUTH_CHANNEL, forget, forget);

  const guardFailures = async (address: string) => {
    const { count, resetMs } = await deps.limiter.peek(`authfail:${address}`, FAILURE_WINDOW_MS, now());
    if (count >= deps.failureLimit) throw rateLimitedError(resetMs);
  };
  const recordFailure = async (address: string) => {
    await deps.limiter.hit(`authfail:${address}`, FAILURE_WINDOW_MS, now());
  };

  async function verify(hash: Buffer, address: string, at: number): Promise<Principal> {
    await guardFailures(address);
    const startedAt = generation;
    const row = await findKeyByHash(deps.db, hash);
    const failure = row ? refusal(row, hash) : 'API_KEY_INVALID';
    if (failure) {
      if (failure === 'API_KEY_INVALID' || failure === 'API_KEY_REVOKED') await recordFailure(address);
      throw authError(failure);
    }
    const verified = row as KeyVerification;
    const principal: Principal = {
      keyId: verified.key_id,
      projectId: verified.project_id,
      currency: verified.currency,
      network: verified.network,
      methods: verified.payment_methods,
      tolerancePercent: verified.underpayment_tolerance_percent,
      invoiceTtlSeconds: verified.invoice_ttl_seconds,
      payoutAddress: verified.payout_address,
      solanaAddress: verified.solana_address,
      hasEvmXpub: verified.has_evm_xpub,
      confirm: () => confirm(hash),
    };
    let lastUsedAt = verified.last_used_at?.getTime() ?? 0;
    if (at - lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      await touchApiKey(deps.db, principal.keyId, new Date(at));
      lastUsedAt = at;
    }
    // A notification that arrived while we were reading may concern this very key: don't cache then.
    if (cacheUsable() && startedAt === generation) {
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(hash.toString('base64'), { principal, expiresAt: at + CACHE_TTL_MS, lastUsedAt });
    }
    return principal;
  }

  async function confirm(hash: Buffer): Promise<void> {
    const row = await findKeyByHash(deps.db, hash);
    const failure = row ? refusal(row, hash) : 'API_KEY_INVALID';
    if (!failure) return;
    cache.delete(hash.toString('base64'));
    throw authError(failure);
  }

  return {
    guardFailures,
    recordFailure,
    async authenticate(authorization, address) {
      const at = now();
      const parsed = parseAuthorization(authorization);
      if (parsed.kind === 'missing') throw authError('API_KEY_REQUIRED');
      if (parsed.kind === 'malformed') throw authError('API_KEY_INVALID_FORMAT');
      const digest = apiKeyDigest(parsed.key);
      const hit = cacheUsable() ? cache.get(digest) : undefined;
      if (!hit || hit.expiresAt <= at) return verify(Buffer.from(digest, 'base64'), address, at);
      if (at - hit.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
        hit.lastUsedAt = at;
        await touchApiKey(deps.db, hit.principal.keyId, new Date(at));
      }
      return hit.principal;
    },
  };
}

/** The contract's order after "unknown key": revoked, then account, then project. */
function refusal(row: KeyVerification, hash: Buffer): ErrorCode | undefined {
  // The row was found by this hash; comparing again in constant time keeps the check honest even if
  // the lookup ever changes to something looser than equality.
  if (!timingSafeEqual(row.key_hash, hash)) return 'API_KEY_INVALID';
  if (row.key_status === 'revoked') return 'API_KEY_REVOKED';
  if (row.account_status !== 'active') return 'ACCOUNT_NOT_ACTIVE';
  if (row.project_status !== 'active') return 'PROJECT_NOT_ACTIVE';
  return undefined;
}
