import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redactCapabilities } from './log-redaction.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route a page or a monitor asks again and again (the payment page's status, every 2 s): its
     * requests are logged at `debug`, so that `info` keeps to what happened.
     */
    polled?: boolean;
  }
}

/** pino's levels: a logger at `warn` writes nothing at `info`. */
const LEVELS: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/**
 * One line per request, written when the answer has gone: Fastify's own pair ("incoming request",
 * then "request completed") doubled the log and split what an operator reads together. The line's
 * trace_id comes from the request's logger (app.ts names the label). The URL is redacted as ever.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    logRequest(request, reply);
    done();
  });
}

function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const level = request.routeOptions.config?.polled ? 'debug' : 'info';
  // Below the configured level nothing is built: no object, no redaction, per request.
  if ((LEVELS[request.log.level] ?? 0) > (LEVELS[level] as number)) return;
  request.log[level](
    {
      method: request.method,
      url: redactCapabilities(request.url),
      status_code: reply.statusCode,
      response_time_ms: Math.round(reply.elapsedTime * 10) / 10,
      client_address: request.ip,
    },
    'request completed',
  );
}
