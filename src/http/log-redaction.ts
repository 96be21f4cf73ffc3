import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import pino from 'pino';

/**
 * Contract §21: the routes whose path carries a capability token, a secret that by itself grants
 * access (a refund's claim link, a dashboard invitation). The one list: log lines, error messages
 * and audit targets write such a token as `…` plus at most its last 4 characters, so that a log
 * reader cannot claim a refund or take over an invitation. A test checks that every route of the
 * app with a `:token` parameter is on it. Sessions ride in a cookie (redacted in src/log.ts), and
 * the dashboard's `?form=` result ids are sealed with the session's cookie, so neither is here.
 */
export const CAPABILITY_ROUTES = ['/refund/:token', '/dashboard/invite/:token'] as const;

/** A query parameter that would carry a capability token on any route: never logged either. */
const CAPABILITY_QUERY = /([?&]token=)([^&#\s"']*)/g;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Not anchored: the same path inside a message ("No route for PUT /refund/…") is redacted too.
const PATH_PATTERNS = CAPABILITY_ROUTES.map(
  (route) => new RegExp(`(${escapeRegExp(route.slice(0, route.indexOf(':')))})([^/?#\\s"']+)`, 'g'),
);

export function isCapabilityRoute(route: string): boolean {
  return (CAPABILITY_ROUTES as readonly string[]).includes(route);
}

/** `…` and the last 4 characters, enough to tell two links apart; a short token shows nothing. */
export function redactToken(token: string): string {
  return token.length > 8 ? `…${token.slice(-4)}` : '…';
}

/** Any text (a URL, an error message, a stack) with every capability token in it redacted. */
export function redactCapabilities(text: string): string {
  const keep = (_match: string, prefix: string, token: string) => `${prefix}${redactToken(token)}`;
  return PATH_PATTERNS.reduce((t, p) => t.replace(p, keep), text).replace(CAPABILITY_QUERY, keep);
}

/** Fastify's own request serializer, with the URL redacted. */
function requestForLog(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactCapabilities(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}

/** pino's error serializer, with the message and stack redacted (a router error quotes the URL). */
function errorForLog(err: Error) {
  const out = pino.stdSerializers.err(err);
  out.message = redactCapabilities(out.message);
  if (out.stack) out.stack = redactCapabilities(out.stack);
  return out;
}

/** Every request's logger (Fastify's childLoggerFactory) serializes `req` and `err` as above. */
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

export function redactingChildLogger(
  logger: FastifyBaseLogger,
  bindings: Parameters<FastifyBaseLogger['child']>[0],
  options: ChildOptions,
): FastifyBaseLogger {
  const serializers = { ...options.serializers, req: requestForLog, err: errorForLog };
  return logger.child(bindings, { ...options, serializers } as ChildOptions);
}
