import type { FastifyInstance } from 'fastify';
import { sendError } from './envelope.js';

/** While draining, a request arriving now is answered at once, asked to come back after this. */
const RETRY_AFTER_SECONDS = 5;
/** Requests are turned away for at least this long before the listener closes (see stop()). */
const QUIET_MS = 200;
const MAX_DRAIN_MS = 2_000;

export interface Drain {
  readonly draining: boolean;
  /**
   * Begins a graceful stop of the HTTP side: from now on every new request is answered 503 in the
   * envelope with Retry-After and `Connection: close`, in-flight requests finish normally (their
   * answers also close the connection), and once requests have stopped arriving (or after two
   * seconds) the listener and the idle connections are closed. Resolves when the server is closed.
   */
  stop(): Promise<void>;
}

/**
 * Why the pause before closing: a keep-alive client sends its next request on the socket it holds.
 * Closing a socket the moment a client writes to it resets the request; answering it 503 with
 * `Connection: close` instead tells the client to leave, and its next attempt meets a closed listener
 * (refused), which every client and load balancer understands. The hook goes first in the app, so a
 * draining server does no work for a request: no authentication, no database.
 */
export function registerDrain(app: FastifyInstance): Drain {
  let draining = false;
  let lastArrival = 0;
  app.addHook('onRequest', (request, reply, done) => {
    if (!draining) return done();
    lastArrival = Date.now();
    reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
    sendError(request, reply, 503, 'INTERNAL_SERVER_ERROR', 'The server is shutting down; retry shortly');
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('Connection', 'close');
    done(null, payload);
  });
  return {
    get draining() {
      return draining;
    },
    async stop() {
      draining = true;
      const started = Date.now();
      lastArrival = started;
      while (Date.now() - lastArrival < QUIET_MS && Date.now() - started < MAX_DRAIN_MS) {
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 4));
      }
      await app.close();
    },
  };
}
