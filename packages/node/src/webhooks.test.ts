import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { observeOne } from '../../../src/invoices/observe.js';
import { money } from '../../../src/money/money.js';
import { admin, manualClock } from '../../../test/app.js';
import { addEndpoint, DELIVERY_JOB, type Receiver, startReceiver } from '../../../test/webhooks.js';
import { type Server, startServer } from '../test/server.js';
import { Paydesk, PaydeskSignatureVerificationError, type WebhookEvent } from './index.js';

const KEY = `svc_secret_${'k'.repeat(40)}`;
const webhooks = new Paydesk(KEY).webhooks;

/** The verification error a call throws; fails the test if it verifies. */
function failure(verify: () => unknown): PaydeskSignatureVerificationError {
  try {
    verify();
  } catch (e) {
    if (e instanceof PaydeskSignatureVerificationError) return e;
    throw e;
  }
  throw new Error('expected the delivery to be refused');
}

/** Paydesk with its delivery worker on `clock`, a receiver, and an endpoint for it. */
async function deliveringServer(clock?: () => Date) {
  const s = await startServer({
    env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' },
    workers: [DELIVERY_JOB],
    ...(clock ? { clock } : {}),
  });
  const receiver = await startReceiver();
  const endpoint = await addEndpoint(s.app, s.merchant.projectId, receiver.url);
  return { s, receiver, secret: endpoint.secret };
}

describe('a real delivery', () => {
  let s: Server;
  let receiver: Receiver;
  let secret: string;
  let events: WebhookEvent[];

  beforeAll(async () => {
    ({ s, receiver, secret } = await deliveringServer());
    const invoice = await s.client().invoices.create({ amount: '10.00', order_id: 'hook-1' });
    const pay = `/v1/admin/invoices/${invoice.id}/simulate-payment`;
    await admin(s.app, 'POST', pay, { confirmed: false, tx_hash: '0xseen' });
    await receiver.waitFor(2);
    await admin(s.app, 'POST', pay, { tx_hash: '0xseen' });
    events = (await receiver.waitFor(3)).map((r) => webhooks.verify(r.body, r.headers, secret));
  });
  afterAll(async () => {
    await receiver.close();
    await s.close();
  });

  test('verifies, and is a typed event for each change', () => {
    expect(events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.payment_detected',
      'invoice.paid',
    ]);
    for (const event of events) {
      expect(event.id).toMatch(/^evt_/);
      if (event.type === 'webhook.test' || event.type.startsWith('refund.')) throw new Error('not sent here');
      if (!('invoice' in event.data)) throw new Error('an invoice event');
      expect(event.data.invoice.order_id).toBe('hook-1');
    }
    const [created, detected, paid] = events;
    expect(created?.type === 'invoice.created' && created.data.previous_status).toBeNull();
    if (detected?.type !== 'invoice.payment_detected') throw new Error('expected payment_detected');
    expect(detected.data.payment).toEqual({
      tx_hash: '0xseen',
      network: 'sandbox',
      currency: 'USDT',
      amount: '10.00',
      confirmed: false,
    });
    if (paid?.type !== 'invoice.paid') throw new Error('expected invoice.paid');
    expect(paid.data.previous_status).toBe('pending');
    expect(paid.data.invoice).toMatchObject({ status: 'paid', amount_paid: '10.00', tx_hash: '0xseen' });
  });

  test('verifies from a Buffer body and from fetch-style Headers', () => {
    const r = receiver.received[2] ?? receiver.received[0];
    if (!r) throw new Error('no delivery');
    const headers = new Headers(r.headers as Record<string, string>);
    expect(webhooks.verify(Buffer.from(r.body), headers, secret).id).toBe(events[2]?.id);
  });

  test('with the body changed is refused, and the message says to pass the raw body', () => {
    const r = receiver.received[2];
    if (!r) throw new Error('no delivery');
    const tampered = r.body.replace('"amount":"10.00"', '"amount":"1.00"');
    expect(tampered).not.toBe(r.body);
    const error = failure(() => webhooks.verify(tampered, r.headers, secret));
    expect(error.reason).toBe('no_matching_signature');
    expect(error.message).toMatch(/raw request body exactly as received/);
  });

  test('re-serialised JSON is refused like any other change to the bytes', () => {
    const r = receiver.received[0];
    if (!r) throw new Error('no delivery');
    const reserialised = JSON.stringify(JSON.parse(r.body), null, 2);
    expect(failure(() => webhooks.verify(reserialised, r.headers, secret)).reason).toBe(
      'no_matching_signature',
    );
  });

  test('with another endpoint’s secret is refused, and the message names the signing secret', () => {
    const r = receiver.received[0];
    if (!r) throw new Error('no delivery');
    const wrong = `whsec_${randomBytes(32).toString('base64')}`;
    const error = failure(() => webhooks.verify(r.body, r.headers, wrong));
    expect(error.reason).toBe('no_matching_signature');
    expect(error.message).toMatch(/signing secret of the endpoint that received it \(whsec_…/);
  });

  test('parsed JSON instead of the raw body is refused with how to get the raw body', () => {
    const r = receiver.received[0];
    if (!r) throw new Error('no delivery');
    const error = failure(() => webhooks.verify(JSON.parse(r.body), r.headers, secret));
    expect(error.reason).toBe('invalid_body');
    expect(error.message).toMatch(/raw request body \(a string or Buffer\).*not object.*parseAs: 'buffer'/);
  });

  test('the API key in place of the signing secret is refused, saying so', () => {
    const r = receiver.received[0];
    if (!r) throw new Error('no delivery');
    const error = failure(() => webhooks.verify(r.body, r.headers, s.merchant.secret));
    expect(error.reason).toBe('invalid_secret');
    expect(error.message).toMatch(
      /^That is your API key\. The webhook secret is the endpoint's signing secret/,
    );
    expect(error.message).not.toContain(s.merchant.secret);
  });

  test.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('without %s is refused', (name) => {
    const r = receiver.received[0];
    if (!r) throw new Error('no delivery');
    const { [name]: _, ...rest } = r.headers;
    const error = failure(() => webhooks.verify(r.body, rest, secret));
    expect(error.reason).toBe('missing_header');
    expect(error.message).toMatch(new RegExp(`^The ${name} header is missing`));
  });
});

describe('a payment in a token the invoice does not accept', () => {
  test('arrives as a typed invoice.payment_unaccepted with the payment’s network and token', async () => {
    const { s, receiver, secret } = await deliveringServer();
    try {
      const invoice = await s.client().invoices.create({ amount: '10.00' });
      // What a chain watcher reports for USDC on Polygon reaching a USDT-on-sandbox invoice's address.
      await observeOne(
        s.app.db,
        invoice.id,
        {
          kind: 'payment',
          txHash: '0xelsewhere',
          network: 'polygon',
          currency: 'USDC',
          amount: money('10.00'),
          confirmed: true,
          accepted: false,
        },
        { now: new Date(), publicBaseUrl: s.app.config.publicBaseUrl },
      );
      const [, delivery] = await receiver.waitFor(2);
      if (!delivery) throw new Error('no delivery');
      const event = webhooks.verify(delivery.body, delivery.headers, secret);
      if (event.type !== 'invoice.payment_unaccepted') throw new Error(`got ${event.type}`);
      expect(event.data.payment).toEqual({
        tx_hash: '0xelsewhere',
        network: 'polygon',
        currency: 'USDC',
        amount: '10.00',
        confirmed: false,
      });
      expect(event.data.invoice).toMatchObject({
        status: 'pending',
        amount_paid: '0.00',
        network: 'sandbox',
      });
      expect(event.data.invoice.payments).toEqual([
        expect.objectContaining({ network: 'polygon', currency: 'USDC', status: 'unaccepted' }),
      ]);
    } finally {
      await receiver.close();
      await s.close();
    }
  });
});

describe('the timestamp', () => {
  const signedAt = new Date('2026-03-01T12:00:00.000Z');
  let s: Server;
  let delivery: { body: string; headers: Record<string, unknown> };
  let secret: string;

  beforeAll(async () => {
    const server = await deliveringServer(manualClock(signedAt));
    s = server.s;
    secret = server.secret;
    await s.client().invoices.create({ amount: '1.00' });
    const [r] = await server.receiver.waitFor(1);
    if (!r) throw new Error('no delivery');
    delivery = r;
    await server.receiver.close();
  });
  afterAll(() => s.close());

  const at = (seconds: number) => new Date(signedAt.getTime() + seconds * 1000);
  const verifyAt = (seconds: number, toleranceSeconds?: number) =>
    webhooks.verify(delivery.body, delivery.headers as Record<string, string>, secret, {
      receivedAt: at(seconds),
      ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
    });

  test('within 5 minutes either way is accepted', () => {
    for (const seconds of [-300, -1, 0, 1, 300]) expect(verifyAt(seconds).type).toBe('invoice.created');
  });

  test.each([
    [
      301,
      /^The webhook was signed 301 s ago, outside the 300 s allowed: an old delivery replayed, or a clock/,
    ],
    [-600, /^The webhook was signed 600 s in the future, outside the 300 s allowed: a clock that is wrong/],
  ])('received %i s after signing is refused, naming the clocks', (seconds, message) => {
    const error = failure(() => verifyAt(seconds));
    expect(error.reason).toBe('timestamp_out_of_tolerance');
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/Check that both keep time \(NTP\)\.$/);
  });

  test('the tolerance can be set', () => {
    expect(verifyAt(600, 700).type).toBe('invoice.created');
    expect(failure(() => verifyAt(61, 60)).reason).toBe('timestamp_out_of_tolerance');
  });
});

describe('signatures made by the standardwebhooks library', () => {
  const secretArb = fc
    .uint8Array({ minLength: 16, maxLength: 64 })
    .map((b) => `whsec_${Buffer.from(b).toString('base64')}`);
  const event = fc
    .record({
      id: fc.string({ minLength: 1 }),
      type: fc.constantFrom('invoice.paid', 'webhook.test'),
      note: fc.string(),
    })
    .map((e) => JSON.stringify({ ...e, created_at: new Date().toISOString(), data: { note: e.note } }));

  function signed(secret: string, body: string, id = 'evt_1', at = new Date()) {
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    };
  }

  test('verify, whatever the secret and the body', () => {
    fc.assert(
      fc.property(secretArb, event, (secret, body) => {
        return webhooks.verify(body, signed(secret, body), secret).id === JSON.parse(body).id;
      }),
    );
  });

  test('do not verify once any one character of the body changes', () => {
    fc.assert(
      fc.property(
        secretArb,
        event,
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 1 }),
        (secret, body, at, ch) => {
          const i = at % body.length;
          fc.pre(body[i] !== ch);
          const changed = body.slice(0, i) + ch + body.slice(i + 1);
          return (
            failure(() => webhooks.verify(changed, signed(secret, body), secret)).reason ===
            'no_matching_signature'
          );
        },
      ),
    );
  });

  test('verify when one of several signatures matches (a secret being rolled)', () => {
    const [oldSecret, newSecret] = [1, 2].map(() => `whsec_${randomBytes(24).toString('base64')}`) as [
      string,
      string,
    ];
    const body =
      '{"id":"evt_2","type":"webhook.test","created_at":"2026-01-01T00:00:00.000Z","data":{"endpoint_id":"we_1"}}';
    const headers = signed(newSecret, body, 'evt_2');
    headers['webhook-signature'] =
      `v1a,ignored ${signed(oldSecret, body, 'evt_2')['webhook-signature']} ${headers['webhook-signature']}`;
    for (const secret of [oldSecret, newSecret]) {
      const e = webhooks.verify(body, headers, secret);
      expect(e.type === 'webhook.test' && e.data.endpoint_id).toBe('we_1');
    }
  });

  test('a signature for another webhook-id does not verify', () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const body = '{"id":"evt_3","type":"invoice.paid","data":{}}';
    const headers = { ...signed(secret, body, 'evt_3'), 'webhook-id': 'evt_other' };
    expect(failure(() => webhooks.verify(body, headers, secret)).reason).toBe('no_matching_signature');
  });

  test('a timestamp that is not Unix seconds is refused before anything else', () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const headers = { ...signed(secret, '{}'), 'webhook-timestamp': '2026-01-01T00:00:00Z' };
    expect(failure(() => webhooks.verify('{}', headers, secret)).reason).toBe('invalid_timestamp');
  });
});
