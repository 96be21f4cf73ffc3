import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../test/app.js';

/**
 * Contract §20: a request whose body has not fully arrived within HTTP_REQUEST_TIMEOUT_SECONDS is
 * answered 408 in the envelope and its connection closed; one second here, the bound under test.
 */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp({ env: { HTTP_REQUEST_TIMEOUT_SECONDS: '1', HTTP_HEADERS_TIMEOUT_SECONDS: '1' } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
afterAll(() => t.close());

/** Writes `raw` and never another byte; resolves with what the server sent once it closed. */
function stall(raw: string): Promise<{ response: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      response += chunk;
    });
    socket.on('close', () => resolve({ response, ms: performance.now() - started }));
    socket.on('error', reject);
    socket.write(raw);
  });
}

function parse(response: string) {
  const [head = '', body = ''] = response.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

describe('a client that stops sending is answered 408 and disconnected', () => {
  test.each([
    [
      'half a body',
      `POST /v1/admin/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    ],
    ['headers that never end', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n'],
  ])('%s', async (_name, raw) => {
    const { response, ms } = await stall(raw);
    const res = parse(response);
    expect(res.status).toBe(408);
    expect(res.headers.connection).toBe('close');
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: { errors: [{ rule: 'request_timeout' }] } },
    });
    expect(res.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    // Answered near the bound: Node checks it every quarter of it (app.ts), so 1 s plus at most 0.25 s.
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5_000);
  });

  test('a request answered from its headers alone (401) is not answered twice: its connection is closed', async () => {
    const raw =
      'POST /v1/merchant/invoices HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":';
    const { response } = await stall(raw);
    expect(response.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
    expect(parse(response).status).toBe(401);
  });

  test('the server goes on serving', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/health`);
    expect(res.status).toBe(200);
  });
});
