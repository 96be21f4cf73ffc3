import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

/**
 * The process's logger: JSON lines (with the request's trace_id) for a log collector, or the same
 * records pretty-printed for a person at a terminal. The Authorization header is redacted wherever a
 * request is logged; nothing else that is logged ever holds a secret.
 */
export function createLogger(config: Config, isTerminal = Boolean(process.stdout.isTTY)): FastifyBaseLogger {
  const options = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] };
  const format = config.logFormat ?? (isTerminal ? 'pretty' : 'json');
  if (format === 'json') return pino(options);
  return pino(
    options,
    // One line a record (an error's stack still takes its own lines): a request is one line to read.
    pretty({
      colorize: isTerminal,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
    }),
  );
}
