import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from './errors.js';
import { randomTraceId } from './trace.js';

interface ClientError extends Error {
  code?: string;
}

/** What each kind of malformed request is answered with; anything else the parser refuses is a 400. */
interface Answer {
  status: number;
  message: string;
  rule: string;
}
const ANSWERS: Record<string, Answer> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: 'The request headers are larger than the server accepts',
    rule: 'malformed_http',
  },
  // Contract §20: HTTP_REQUEST_TIMEOUT_SECONDS (headers and body), HTTP_HEADERS_TIMEOUT_SECONDS.
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: 'The request did not arrive in time: send the whole body without pausing',
    rule: 'request_timeout',
  },
  ERR_HTTP_HEADERS_TIMEOUT: {
    status: 408,
    message: 'The request headers did not arrive in time',
    rule: 'request_timeout',
  },
};
const MALFORMED: Answer = { status: 400, message: 'The request is not valid HTTP', rule: 'malformed_http' };

/** Connections whose last request was answered before its whole body had arrived. */
const answeredEarly = new WeakSet<Socket>();

/** Remembers the requests answered from their headers alone (see `clientErrorHandler`). */
export function rememberEarlyAnswers(app: FastifyInstance): void {
  app.addHook('onResponse', (request, _reply, done) => {
    if (!request.raw.complete) answeredEarly.add(request.raw.socket);
    done();
  });
}

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
  // A request answered before its body arrived (a 401 decided from the headers) already has its
  // response: a second one would break the exchange, so the connection is only closed.
  if (socket.writable && !answeredEarly.has(socket)) socket.write(rawResponse(answer, traceId));
  socket.destroy();
}

function rawResponse({ status, message, rule }: Answer, traceId: string): string {
  const code: ErrorCode = 'VALIDATION_ERROR';
  const field = status === 431 ? 'headers' : 'request';
  const body = JSON.stringify({
    success: false,
    message,
    error: {
      code,
      details: { errors: [{ in: 'header', field, rule, message }] },
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
