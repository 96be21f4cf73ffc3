import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';

/** Requests Node's HTTP parser refuses before Fastify sees them, written byte for byte on a raw socket. */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
afterAll(() => t.close());

/**
 * Sends raw bytes and reads until the server closes the connection. The socket is not half-closed:
 * the server, not the client, ends every exchange here.
 */
function exchange(raw: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      out += chunk;
    });
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.write(raw);
  });
}

function parse(response: string) {
  const [head = '', body = ''] = response.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

const GOOD_HEADERS = 'Host: 127.0.0.1\r\nAccept: application/json\r\n';

describe('malformed HTTP is answered in the envelope, with a trace id, and the connection closed', () => {
  test.each([
    ['a bare LF inside a header', `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\nb\r\n\r\n`],
    ['a garbage request line', 'HELLO THERE\r\n\r\n'],
    ['a request line that is not HTTP', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n'],
    [
      'two different Content-Lengths',
      `POST /v1/merchant/invoices HTTP/1.1\r\n${GOOD_HEADERS}Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}`,
    ],
    ['a header without a colon', `GET /v1/health HTTP/1.1\r\n${GOOD_HEADERS}NoColonHere\r\n\r\n`],
    ['a space before the colon', `GET /v1/health HTTP/1.1\r\n${GOOD_HEADERS}Bad : x\r\n\r\n`],
  ])('%s → 400 VALIDATION_ERROR', async (_name, raw) => {
    const res = parse(await exchange(raw));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: { errors: [{ in: 'header', rule: 'malformed_http' }] } },
    });
    expect(res.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.headers['x-trace-id']).toBe(res.body.trace_id);
  });

  test('headers over the size limit → 431 VALIDATION_ERROR', async () => {
    const raw = `GET /v1/health HTTP/1.1\r\n${GOOD_HEADERS}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const res = parse(await exchange(raw));
    expect(res.status).toBe(431);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(res.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });

  test('the server goes on serving well-formed requests', async () => {
    const res = parse(await exchange(`GET /v1/health HTTP/1.1\r\n${GOOD_HEADERS}Connection: close\r\n\r\n`));
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('ok');
  });
});
