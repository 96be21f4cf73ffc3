import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/**
 * URLs that carry a secret in their path: a dashboard invite link's token. Logged with the token
 * replaced, so that a log reader cannot take over the invite.
 */
const SECRET_PATHS = [/(\/dashboard\/invite\/)[^/?#]+/];

export function redactUrl(url: string): string {
  return SECRET_PATHS.reduce((u, pattern) => u.replace(pattern, '$1[redacted]'), url);
}

/** Fastify's own request serializer, with the URL redacted. */
function requestForLog(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}

/** Every request's logger (Fastify's childLoggerFactory) serializes `req` with requestForLog. */
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

export function redactingChildLogger(
  logger: FastifyBaseLogger,
  bindings: Parameters<FastifyBaseLogger['child']>[0],
  options: ChildOptions,
): FastifyBaseLogger {
  const serializers = { ...options.serializers, req: requestForLog };
  return logger.child(bindings, { ...options, serializers } as ChildOptions);
}
