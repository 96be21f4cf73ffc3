import type { FastifyBaseLogger } from 'fastify';
import { type Decimal, parseRate, withinSpread } from './decimal.js';
import type { Quote } from './rate.js';
import type { UsedRates } from './repository.js';

/** How far back the last rate used is a reference (contract §21). */
export const REFERENCE_WINDOW_MS = 24 * 3600_000;

/**
 * True when `fresh` may price on its own: no reference, or within `maxJump` percent of it (relative
 * to the reference). A move beyond needs a second source's word: one source alone that jumps is more
 * often a broken feed, a thin market or a tampered proxy than the market itself.
 */
export function withinJump(reference: Decimal | undefined, fresh: Decimal, maxJump: Decimal): boolean {
  return reference === undefined || withinSpread(reference, fresh, maxJump);
}

export interface Plausibility {
  /** Whether the decided rate may price: confirmed by a second source, or close to the last one used. */
  allows(pair: string, rate: Quote, confirmed: boolean): Promise<boolean>;
  /** Records a rate that priced, as the next reference of every instance. */
  used(pair: string, rate: Quote): Promise<void>;
}

export function plausibility(deps: {
  used: UsedRates;
  maxJumpPercent: string;
  clock: () => Date;
  log: Pick<FastifyBaseLogger, 'warn'>;
}): Plausibility {
  // "0" parses to nothing: every move then needs a second source.
  const maxJump = parseRate(deps.maxJumpPercent) ?? { units: 0n, scale: 0 };
  return {
    async allows(pair, rate, confirmed) {
      if (confirmed) return true;
      const fresh = parseRate(rate.value);
      if (!fresh) return false;
      const since = new Date(deps.clock().getTime() - REFERENCE_WINDOW_MS);
      const last = await deps.used.last(pair, since);
      if (withinJump(last === undefined ? undefined : parseRate(last), fresh, maxJump)) return true;
      deps.log.warn(
        { pair, rate_source: rate.source, rate: rate.value, last_used: last },
        'rate moved beyond PAYDESK_RATE_MAX_JUMP_PERCENT with no second source agreeing; not used',
      );
      return false;
    },
    async used(pair, rate) {
      await deps.used.record(pair, rate.value, deps.clock());
    },
  };
}
