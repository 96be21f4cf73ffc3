import { coinbaseSource } from './coinbase.js';
import { ecbSource } from './ecb.js';
import { krakenSource, type SourceOptions } from './kraken.js';
import type { RateSource } from './rate.js';
import { ECB_MAX_AGE_SECONDS, type RateSettings, type SourceName } from './settings.js';

const ADAPTERS: Record<SourceName, (o: SourceOptions) => RateSource> = {
  kraken: krakenSource,
  coinbase: coinbaseSource,
  ecb: ecbSource,
};

/** The enabled sources, in the operator's order. */
export function rateSources(settings: RateSettings, clock: () => Date): RateSource[] {
  return settings.sources.map((name) =>
    ADAPTERS[name]({
      endpoint: settings.endpoints[name],
      timeoutMs: settings.timeoutMs,
      // The ECB publishes once a working day: allowed a day (contract §19).
      maxAgeMs: name === 'ecb' ? Math.max(settings.maxAgeMs, ECB_MAX_AGE_SECONDS * 1000) : settings.maxAgeMs,
      clock,
    }),
  );
}
