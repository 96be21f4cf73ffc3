import type { AddressInfo } from 'node:net';
import {
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
  type TestAppOptions,
} from '../../../test/app.js';
import { Paydesk, type PaydeskOptions } from '../src/index.js';

export interface Server extends TestApp {
  /** Where the real HTTP server listens, http://127.0.0.1:<port>. */
  baseUrl: string;
  merchant: Merchant;
  /** A client for the merchant; it never waits for real between retries (it records the waits instead). */
  client(options?: PaydeskOptions): Paydesk;
  /** Every wait the clients made between retries, in ms. */
  sleeps: number[];
  /** The requests Paydesk logged, as `METHOD url`. */
  requests(): string[];
  /** The status of every response Paydesk logged, oldest first; only those of one trace id when given. */
  statuses(traceId?: string): number[];
}

/** The real Paydesk app on a real port (PGlite by default), with one merchant. */
export async function startServer(options: TestAppOptions = {}): Promise<Server> {
  const t = await startTestApp(options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const merchant = await createMerchant(t.app);
  const sleeps: number[] = [];
  return Object.assign(t, {
    baseUrl,
    merchant,
    sleeps,
    client: (o: PaydeskOptions = {}) =>
      new Paydesk(merchant.secret, {
        baseUrl,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        ...o,
      }),
    // Each request's one log line (src/http/request-log.ts), in the order the answers went.
    requests: () => t.logs.filter((l) => l.msg === 'request completed').map((l) => `${l.method} ${l.url}`),
    statuses: (traceId?: string) =>
      t.logs
        .filter((l) => l.msg === 'request completed' && (traceId === undefined || l.trace_id === traceId))
        .map((l) => l.status_code as number),
  });
}
