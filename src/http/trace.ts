import type { IncomingMessage } from 'node:http';
import { randomBytesPooled } from '../ids.js';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const ZERO_TRACE = '0'.repeat(32);

/**
 * The request id Fastify puts on every log line of a request is the W3C trace-id: the caller's, when
 * it sends a valid `traceparent`, otherwise a fresh random one.
 */
export function traceIdFor(req: IncomingMessage): string {
  const header = req.headers.traceparent;
  if (typeof header === 'string') {
    const match = TRACEPARENT.exec(header.trim());
    const id = match?.[1];
    // Version ff and the all-zero trace-id are invalid by the W3C spec.
    if (id && id !== ZERO_TRACE && !header.startsWith('ff')) return id;
  }
  return randomTraceId();
}

export function randomTraceId(): string {
  return randomBytesPooled(16).toString('hex');
}
