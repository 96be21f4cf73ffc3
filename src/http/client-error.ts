import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from './errors.js';
import { randomTraceId } from './trace.js';

interface ClientError extends Error {
  code?: string;
}

/** What each kind of malformed request is answered with; anything else the parser refuses is a 400. */
const ANSWERS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request headers are larger than the server accepts' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time' },
  ERR_HTTP_HEADERS_TIMEOUT: { status: 408, message: 'The request headers did not arrive in time' },
};
const MALFORMED = { status: 400, message: 'The request is not valid HTTP' };

/**
 * Node's HTTP parser refuses some requests before Fastify ever sees them (a bare LF in a header, a
 * garbage request line, two Content-Lengths, headers over the size limit). They still get the
 * contract's envelope, with a trace id of their own, and the connection is closed: after a framing
 * error nothing else on it can be trusted.
 */
export function clientErrorHandler(this: FastifyInstance, err: ClientError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = (err.code && ANSWERS[err.code]) || MALFORMED;
  const traceId = randomTraceId();
  this.log.info({ trace_id: traceId, code: err.code, status: answer.status }, 'malformed request refused');
  if (socket.writable) socket.write(rawResponse(answer.status, answer.message, traceId));
  socket.destroy();
}

function rawResponse(status: number, message: string, traceId: string): string {
  const code: ErrorCode = 'VALIDATION_ERROR';
  const field = status === 431 ? 'headers' : 'request';
  const body = JSON.stringify({
    success: false,
    message,
    error: {
      code,
      details: { errors: [{ in: 'header', field, rule: 'malformed_http', message }] },
    },
    trace_id: traceId,
  });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Trace-Id: ${traceId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
