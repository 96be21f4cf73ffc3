import type { FastifyBaseLogger } from 'fastify';
import { within } from '../db/bounds.js';
import type { SharedQuotes } from './cache.js';
import { parseRate } from './decimal.js';
import { RateUnavailableError } from './errors.js';
import type { Plausibility } from './plausible.js';
import { decide, isFresh, type Outcome } from './pricing.js';
import { type Failure, type Pair, pairName, type Quote, type RateSource, SourceError } from './rate.js';
import type { SourceName } from './settings.js';

/** A source's last outcome, for /v1/health: no request ever asks a source on health's behalf. */
export interface SourceHealth {
  readonly source: SourceName;
  /** `failing`: its last answer was unusable; `untried`: not asked since this process started. */
  readonly status: 'ok' | 'failing' | 'untried';
  readonly checked_at: string | null;
  readonly reason: Failure | null;
}

export interface RateBook {
  /** The rate that prices an invoice in `pair.quote` paid in `pair.base`, or RateUnavailableError. */
  lookup(pair: Pair): Promise<Quote>;
  health(): SourceHealth[];
  /** Requests sent to each source since the process started (cache hits are not calls). */
  calls(): Record<SourceName, number>;
  /** Resolves when no source is being asked (a lookup does not wait for sources behind the first two fresh). */
  settled(): Promise<void>;
}

export interface RateBookDeps {
  /** In the operator's order. */
  sources: readonly RateSource[];
  /** Shared by every instance (PostgreSQL or Redis); undefined: this process only. */
  shared: SharedQuotes | undefined;
  maxSpreadPercent: string;
  /** The last rates used, shared by every instance; undefined: every decided rate prices (tests of the book). */
  plausibility?: Plausibility | undefined;
  cacheMs: number;
  /** Bounds each read and write of the shared cache too, so no lookup waits longer than a source. */
  timeoutMs: number;
  clock: () => Date;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

interface Memo {
  outcome: Outcome;
  until: number;
}

/**
 * Every enabled source is asked at once and each answer (or failure) is kept for the cache interval:
 * in this process, and for answers in the shared cache too, so a burst of lookups on any number of
 * instances asks each source about once per interval. Concurrent lookups in one process share one
 * request per source and pair.
 */
export function createRateBook(deps: RateBookDeps): RateBook {
  // "0" parses to nothing (a rate is never zero): sources must then agree exactly.
  const spread = parseRate(deps.maxSpreadPercent) ?? { units: 0n, scale: 0 };
  const memos = new Map<string, Memo>();
  const inFlight = new Map<string, Promise<Outcome>>();
  const calls = Object.fromEntries(deps.sources.map((s) => [s.name, 0])) as Record<SourceName, number>;
  const last = new Map<SourceName, { outcome: Outcome; at: Date }>();

  const remember = (key: string, outcome: Outcome, until: number) => {
    memos.set(key, { outcome, until });
    return outcome;
  };

  async function fromShared(source: RateSource, pair: string): Promise<Quote | undefined> {
    if (!deps.shared) return undefined;
    try {
      return await within(deps.shared.get(source.name, pair), deps.timeoutMs);
    } catch (err) {
      deps.log.warn(
        { err: (err as Error).name, rate_source: source.name },
        'rate cache unreadable; asking the source',
      );
      return undefined;
    }
  }

  async function share(pair: string, quote: Quote) {
    if (!deps.shared) return;
    try {
      await within(deps.shared.put(pair, quote), deps.timeoutMs);
    } catch (err) {
      deps.log.warn({ err: (err as Error).name, rate_source: quote.source }, 'rate cache not written');
    }
  }

  async function fetchOne(source: RateSource, pair: Pair, key: string): Promise<Outcome> {
    const cached = await fromShared(source, key);
    if (cached && deps.clock().getTime() - cached.fetchedAt.getTime() < deps.cacheMs) {
      last.set(source.name, { outcome: { ok: true, quote: cached }, at: cached.fetchedAt });
      return remember(
        `${source.name}:${key}`,
        { ok: true, quote: cached },
        cached.fetchedAt.getTime() + deps.cacheMs,
      );
    }
    calls[source.name]++;
    let outcome: Outcome;
    try {
      const quote = await source.quote(pair);
      await share(key, quote);
      outcome = { ok: true, quote };
    } catch (err) {
      if (!(err instanceof SourceError)) throw err;
      outcome = { ok: false, reason: err.reason };
    }
    const now = deps.clock();
    const seen: Outcome =
      outcome.ok && !isFresh(outcome.quote, source, now) ? { ok: false, reason: 'stale' } : outcome;
    last.set(source.name, { outcome: seen, at: now });
    if (!seen.ok)
      deps.log.warn(
        { rate_source: source.name, pair: key, reason: seen.reason },
        'rate source gave no usable rate',
      );
    return remember(`${source.name}:${key}`, outcome, now.getTime() + deps.cacheMs);
  }

  function ask(source: RateSource, pair: Pair): Promise<Outcome> {
    const key = `${source.name}:${pairName(pair)}`;
    const memo = memos.get(key);
    if (memo && memo.until > deps.clock().getTime()) return Promise.resolve(memo.outcome);
    let flying = inFlight.get(key);
    if (!flying) {
      flying = fetchOne(source, pair, pairName(pair)).finally(() => inFlight.delete(key));
      inFlight.set(key, flying);
    }
    return flying;
  }

  // The soonest moment a source will be asked again for this pair: when a retry can succeed.
  function retryAfterSeconds(pair: Pair): number {
    const now = deps.clock().getTime();
    const untils = deps.sources.map((s) => memos.get(`${s.name}:${pairName(pair)}`)?.until ?? now);
    return Math.ceil((Math.min(...untils) - now) / 1000);
  }

  // The last decision for each pair, good until the first answer it rests on is due again: every
  // create of a burst reads it with no await, rather than walking the answers again.
  const decided = new Map<string, { rate: Quote; source: RateSource; until: number }>();

  function stillDecided(pair: Pair): Quote | undefined {
    const d = decided.get(pairName(pair));
    const now = deps.clock();
    if (!d || d.until <= now.getTime() || !isFresh(d.rate, d.source, now)) return undefined;
    return d.rate;
  }

  function keep(pair: Pair, rate: Quote) {
    const untils = deps.sources
      .map((s) => memos.get(`${s.name}:${pairName(pair)}`)?.until)
      .filter((u): u is number => u !== undefined);
    const source = deps.sources.find((s) => s.name === rate.source);
    if (source && untils.length > 0)
      decided.set(pairName(pair), { rate, source, until: Math.min(...untils) });
  }

  return {
    async lookup(pair) {
      const known = stillDecided(pair);
      if (known) return known;
      const answers = deps.sources.map((source) => ({ source, outcome: ask(source, pair) }));
      const decision = await decide(answers, deps.clock, spread);
      if (!decision.ok) throw new RateUnavailableError(decision.why, retryAfterSeconds(pair));
      const name = pairName(pair);
      // Contract §21: a lone rate far from the last one used prices nothing until a source agrees.
      if (deps.plausibility && !(await deps.plausibility.allows(name, decision.rate, decision.confirmed)))
        throw new RateUnavailableError('implausible_jump', retryAfterSeconds(pair));
      await deps.plausibility?.used(name, decision.rate);
      keep(pair, decision.rate);
      return decision.rate;
    },
    health: () =>
      deps.sources.map((s) => {
        const seen = last.get(s.name);
        if (!seen) return { source: s.name, status: 'untried', checked_at: null, reason: null };
        const failing = !seen.outcome.ok && seen.outcome.reason !== 'unsupported_pair';
        return {
          source: s.name,
          status: failing ? 'failing' : 'ok',
          checked_at: seen.at.toISOString(),
          reason: seen.outcome.ok ? null : seen.outcome.reason,
        };
      }),
    calls: () => ({ ...calls }),
    async settled() {
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
