import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { boundedQuery, closeConnection, type DatabaseBounds, destroyConnection } from './bounds.js';

/**
 * PostgreSQL LISTEN/NOTIFY, on both backends. Used to tell every instance at once that something it
 * may have cached (a verified API key) has changed.
 */
export interface Notifier {
  /**
   * `onReset` runs whenever notifications may have been missed (the listening connection dropped):
   * whoever caches must then forget everything.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReset: () => void): Promise<void>;
  /** False while the listening connection is down: caches must not be trusted then. */
  readonly healthy: boolean;
  close(): Promise<void>;
}

interface Subscription {
  channel: string;
  onMessage: (payload: string) => void;
  onReset: () => void;
}

/**
 * How often the listening connection proves it is alive. A connection to a server that went silent
 * (a partition) raises no error: without this, caches would be trusted while notifications were lost.
 */
export const HEARTBEAT_MS = 5_000;

export function postgresNotifier(url: string, bounds: DatabaseBounds): Notifier {
  const subs: Subscription[] = [];
  let client: pg.Client | undefined;
  let healthy = false;
  let closed = false;
  let connecting: Promise<void> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: bounds.connectMs,
      keepAlive: true,
      application_name: 'paydesk-listen',
    });
    c.on('notification', (msg) => {
      for (const s of subs) if (s.channel === msg.channel) s.onMessage(msg.payload ?? '');
    });
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    try {
      await c.connect();
      for (const channel of new Set(subs.map((s) => s.channel))) {
        await boundedQuery(c, bounds.statementMs, `listen "${channel}"`);
      }
    } catch (err) {
      destroyConnection(c);
      throw err;
    }
    client = c;
    healthy = true;
    heartbeat = setInterval(() => {
      boundedQuery(c, bounds.statementMs, 'select 1').catch(() => drop(c));
    }, HEARTBEAT_MS).unref();
  };

  const drop = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    healthy = false;
    clearInterval(heartbeat);
    destroyConnection(c);
    for (const s of subs) s.onReset();
    if (!closed) setTimeout(reconnect, 1000).unref();
  };

  const reconnect = () => {
    if (closed || client || connecting) return;
    connecting = connect()
      .catch(() => {
        if (!closed) setTimeout(reconnect, 1000).unref();
      })
      .finally(() => {
        connecting = undefined;
      });
  };

  return {
    get healthy() {
      return healthy;
    },
    async listen(channel, onMessage, onReset) {
      subs.push({ channel, onMessage, onReset });
      if (connecting) await connecting.catch(() => {});
      if (client) await boundedQuery(client, bounds.statementMs, `listen "${channel}"`);
      else {
        connecting = connect().finally(() => {
          connecting = undefined;
        });
        // An unreachable database must not stop the app from starting (health then answers 503):
        // stay unhealthy, so caches are bypassed, and keep trying in the background.
        await connecting.catch(() => {
          if (!closed) setTimeout(reconnect, 1000).unref();
        });
      }
    },
    async close() {
      closed = true;
      healthy = false;
      clearInterval(heartbeat);
      const c = client;
      client = undefined;
      if (c) await closeConnection(c, bounds.connectMs);
    },
  };
}

export function pgliteNotifier(pglite: PGlite): Notifier {
  const unsubscribers: Array<() => Promise<void>> = [];
  return {
    healthy: true,
    async listen(channel, onMessage) {
      unsubscribers.push(await pglite.listen(channel, onMessage));
    },
    async close() {
      for (const u of unsubscribers) await u().catch(() => {});
    },
  };
}
