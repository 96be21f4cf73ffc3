import {
  COINBASE_USDTEUR,
  coinbaseSpot,
  ECB_DAILY,
  ECB_PATH,
  KRAKEN_USDTEUR,
  krakenTicker,
  rateSourceServer,
} from '../test/rate-sources.js';

/**
 * The rate sources the benchmark's Paydesk asks (no internet here): one local server answering USDT/EUR
 * in Kraken's and Coinbase's own formats, as the tests' fixtures do. The ECB's sheet is a recorded day
 * of 2024, so Paydesk finds it stale and prices from the two exchanges, which agree.
 */
export async function rateSources() {
  const server = await rateSourceServer();
  server.answer(KRAKEN_USDTEUR, { body: krakenTicker('USDTEUR', '0.9338', '0.9342') });
  server.answer(COINBASE_USDTEUR, { body: coinbaseSpot('USDT', 'EUR', '0.9341') });
  server.answer(ECB_PATH, { body: ECB_DAILY });
  return {
    env: {
      PAYDESK_RATE_KRAKEN_URL: server.url,
      PAYDESK_RATE_COINBASE_URL: server.url,
      PAYDESK_RATE_ECB_URL: server.url,
    },
    count: server.count,
    close: () => server.close(),
  };
}
