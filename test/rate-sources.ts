import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Recorded answers of the three rate sources, each in its API's own wire format, taken from each
 * API's documentation (the values are the documented examples' own, or the same shape with
 * plausible stablecoin figures where the documented example is for another pair).
 */

// Kraken, GET /0/public/Ticker: the documented example answer, docs.kraken.com/api/docs/rest-api/
// get-ticker-information ("Example (from schema)"), with its pair key and figures as published.
export const KRAKEN_DOC_EXAMPLE = {
  error: [],
  result: {
    XXBTZUSD: {
      a: ['30300.10000', '1', '1.000'],
      b: ['30300.00000', '1', '1.000'],
      c: ['30303.20000', '0.00067643'],
      v: ['4083.67001100', '4412.73601799'],
      p: ['30706.77771', '30689.13205'],
      t: [34619, 38907],
      l: ['29868.30000', '29868.30000'],
      h: ['31631.00000', '31631.00000'],
      o: '30502.80000',
    },
  },
};

/** The documented shape for USDTEUR (Kraken answers with its own key for the pair, here the same). */
export function krakenTicker(pair: string, bid: string, ask: string) {
  return {
    error: [],
    result: {
      [pair]: {
        a: [ask, '12000', '12000.000'],
        b: [bid, '8000', '8000.000'],
        c: [bid, '150.00000000'],
        v: ['1843210.83211904', '2203988.41133700'],
        p: ['0.92331', '0.92318'],
        t: [2101, 2744],
        l: ['0.92210', '0.92210'],
        h: ['0.92410', '0.92410'],
        o: '0.92300',
      },
    },
  };
}

// Kraken's error format, support.kraken.com "API error messages": `{"error":["EQuery:Unknown asset pair"]}`.
export const KRAKEN_UNKNOWN_PAIR = { error: ['EQuery:Unknown asset pair'] };
export const KRAKEN_UNAVAILABLE = { error: ['EService:Unavailable'] };

// Coinbase, GET /v2/prices/:currency_pair/spot, docs.cdp.coinbase.com/coinbase-app/track-apis/prices:
// `{ "data": { "amount", "base", "currency" } }`, the amount a decimal string.
export function coinbaseSpot(base: string, currency: string, amount: string) {
  return { data: { amount, base, currency } };
}

// Coinbase's generic error answer (4xx, 5xx), docs.cloud.coinbase.com/coinbase-app/api-architecture/
// error-messages: `{ "errors": [{ "id": "not_found", "message": "Not found" }] }`.
export const COINBASE_NOT_FOUND = { errors: [{ id: 'not_found', message: 'Not found' }] };

// The ECB's eurofxref-daily.xml as published for 28 June 2024 (the sample reproduced in
// dialogplay/tool-directory integrations/ecb_exchange_rate/README.md, from
// https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml), whitespace and quoting as served.
export const ECB_DAY = '2024-06-28';
export const ECB_DAILY = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='2024-06-28'>
\t\t\t<Cube currency='USD' rate='1.0705'/>
\t\t\t<Cube currency='JPY' rate='171.94'/>
\t\t\t<Cube currency='BGN' rate='1.9558'/>
\t\t\t<Cube currency='CZK' rate='25.025'/>
\t\t\t<Cube currency='DKK' rate='7.4575'/>
\t\t\t<Cube currency='GBP' rate='0.84638'/>
\t\t\t<Cube currency='HUF' rate='395.10'/>
\t\t\t<Cube currency='PLN' rate='4.3090'/>
\t\t\t<Cube currency='RON' rate='4.9773'/>
\t\t\t<Cube currency='SEK' rate='11.3595'/>
\t\t\t<Cube currency='CHF' rate='0.9634'/>
\t\t\t<Cube currency='ISK' rate='148.90'/>
\t\t\t<Cube currency='NOK' rate='11.3965'/>
\t\t\t<Cube currency='TRY' rate='35.1868'/>
\t\t\t<Cube currency='AUD' rate='1.6079'/>
\t\t\t<Cube currency='BRL' rate='5.8915'/>
\t\t\t<Cube currency='CAD' rate='1.4670'/>
\t\t\t<Cube currency='CNY' rate='7.7748'/>
\t\t\t<Cube currency='HKD' rate='8.3594'/>
\t\t\t<Cube currency='IDR' rate='17487.21'/>
\t\t\t<Cube currency='ILS' rate='4.0200'/>
\t\t\t<Cube currency='INR' rate='89.2495'/>
\t\t\t<Cube currency='KRW' rate='1474.86'/>
\t\t\t<Cube currency='MXN' rate='19.5654'/>
\t\t\t<Cube currency='MYR' rate='5.0501'/>
\t\t\t<Cube currency='NZD' rate='1.7601'/>
\t\t\t<Cube currency='PHP' rate='62.560'/>
\t\t\t<Cube currency='SGD' rate='1.4513'/>
\t\t\t<Cube currency='THB' rate='39.319'/>
\t\t\t<Cube currency='ZAR' rate='19.4970'/>
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`;

/** What the fixture server answers a path with; `hang` never answers (a silent host). */
export type Reply = { status?: number; body: unknown; headers?: Record<string, string> } | 'hang' | 'reset';

/**
 * A real HTTP server on 127.0.0.1 and an ephemeral port, answering each path (query included) as the
 * test says, and counting requests and recording their headers.
 */
export async function rateSourceServer() {
  const replies = new Map<string, Reply>();
  const requests: Array<{ path: string; headers: IncomingMessage['headers'] }> = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const reply = replies.get(path);
    if (reply === 'hang') {
      hanging.add(res);
      return;
    }
    if (reply === 'reset') {
      req.socket.destroy();
      return;
    }
    const { status = 200, body, headers = {} } = reply ?? { status: 404, body: 'no fixture' };
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const type = typeof body === 'string' ? 'text/xml' : 'application/json';
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    answer(path: string, reply: Reply) {
      replies.set(path, reply);
    },
    count: (path: string) => requests.filter((r) => r.path === path).length,
    /** Ends every request left hanging, as a host that drops the connection at last. */
    dropHanging() {
      for (const res of hanging) res.socket?.destroy();
      hanging.clear();
    },
    async close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type RateSourceServer = Awaited<ReturnType<typeof rateSourceServer>>;

export const KRAKEN_USDTEUR = '/0/public/Ticker?pair=USDTEUR';
export const COINBASE_USDTEUR = '/v2/prices/USDT-EUR/spot';
export const ECB_PATH = '/eurofxref-daily.xml';
