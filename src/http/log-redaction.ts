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
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type Log = (...args: unknown[]) => void;

/**
 * A request's logger, made when the request first logs. Most requests log nothing below `info` (the
 * request line is built only at or under its level, http/request-log.ts), so building a pino child per
 * request, with its bindings and serializers, was a cost paid for nothing (issue 37's profile: about
 * 5 µs a request). Its level is its parent's until it is set or the child is made.
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  #made(): FastifyBaseLogger {
    if (!this.#child) {
      const serializers = { ...this.options.serializers, req: requestForLog, err: errorForLog };
      this.#child = this.parent.child(this.bindings, { ...this.options, serializers } as ChildOptions);
    }
    return this.#child;
  }
  get level(): string {
    return this.#child ? this.#child.level : this.parent.level;
  }
  set level(level: string) {
    this.#made().level = level;
  }
  #log(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    (this.#made() as unknown as Record<string, Log>)[level]?.(...args);
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

export function redactingChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
