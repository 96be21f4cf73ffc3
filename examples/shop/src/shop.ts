import { randomUUID } from 'node:crypto';
import type { Paydesk, WebhookEvent } from '@paydesk/node';
import Fastify, { type FastifyReply } from 'fastify';

interface Order {
  id: string;
  product: string;
  amount: string;
  currency?: string;
  invoiceId?: string;
  paymentUrl?: string;
  /** "USDT on tron": every way the invoice can be paid (the payer picks one on the payment page). */
  methods?: string[];
  status: 'awaiting payment' | 'paid';
  /** What arrived: "4.00 USDT on tron", one per payment. */
  paidWith?: string[];
  /** Payments the invoice could not take (another token or network), by transaction: never counted. */
  unaccepted: Map<string, string>;
}

const PRODUCT = { name: 'Paydesk mug', amount: '12.50' };
const STICKERS = { name: 'Paydesk sticker pack', amount: '4.00' };

/**
 * The whole Paydesk integration of a small shop: checkout, webhook, order page. The webhook secret is
 * read when a webhook arrives: main.ts learns it only once the shop listens (setup.ts).
 */
export function buildShop(paydesk: Paydesk, webhookSecret: () => string, shopUrl: string) {
  // A real shop keeps its orders in its database; a Map keeps the example short.
  const orders = new Map<string, Order>();
  const app = Fastify();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // Prices are in the project's invoice currency (USD is paid in USDT or USDC at par).
  app.get('/', async (_req, reply) => {
    const { project } = await paydesk.me();
    return page(
      reply,
      PRODUCT.name,
      `<p>${PRODUCT.amount} ${project.currency}</p>
      <form method="post" action="/orders"><button>Pay with crypto</button></form>`,
    );
  });

  // "Buy with a link": no checkout code at all. One payment link (made here on the first view; a
  // merchant without a developer makes it in the dashboard) and its pay button, a plain form posting
  // to the link. Paydesk's link page then makes the invoice when the customer presses "Pay".
  let stickerLink: Promise<string> | undefined;
  app.get('/buy-with-a-link', async (_req, reply) => {
    stickerLink ??= paydesk.paymentLinks
      .create({ title: STICKERS.name, amount: STICKERS.amount })
      .then((link) => link.url);
    const url = await stickerLink.catch((err) => {
      stickerLink = undefined;
      throw err;
    });
    const { project } = await paydesk.me();
    return page(
      reply,
      STICKERS.name,
      `<p>${STICKERS.amount} ${project.currency}</p>
      <form method="post" action="${url}"><button>Buy with a link</button></form>`,
    );
  });

  // Create the order, then its invoice, and send the customer to Paydesk's payment page.
  app.post('/orders', async (_req, reply) => {
    const order: Order = {
      id: randomUUID(),
      product: PRODUCT.name,
      amount: PRODUCT.amount,
      status: 'awaiting payment',
      unaccepted: new Map(),
    };
    orders.set(order.id, order);
    const invoice = await paydesk.invoices.create(
      {
        amount: order.amount,
        order_id: order.id,
        metadata: { product: order.product },
        // The payment page's "Return to …" (after paying) and "Cancel and return" come back here.
        redirect_url: `${shopUrl}/orders/${order.id}`,
        cancel_url: `${shopUrl}/`,
      },
      // One invoice per order, however often this request is retried.
      { idempotencyKey: `order-${order.id}` },
    );
    // An invoice of several methods has no single network or address (both null until paid): list them.
    const methods = invoice.payment_methods.map((m) => `${m.currency} on ${m.network}`);
    Object.assign(order, {
      invoiceId: invoice.id,
      paymentUrl: invoice.payment_url,
      currency: invoice.currency,
      methods,
    });
    return reply.redirect(invoice.payment_url, 303);
  });

  app.get<{ Params: { id: string } }>('/orders/:id', async (req, reply) => {
    const order = orders.get(req.params.id);
    if (!order) return reply.code(404).send('No such order');
    const pay =
      order.status === 'paid'
        ? `<p>Paid with ${order.paidWith?.join(' and ')}</p>`
        : `<p><a href="${order.paymentUrl}">Pay with crypto</a> (${order.methods?.join(', ')})</p>`;
    const returns = [...order.unaccepted.values()].map(
      (p) => `<p>We cannot take ${p}: contact us to get it back.</p>`,
    );
    return page(
      reply,
      `Order ${order.id}`,
      `<p>${order.product}, ${order.amount} ${order.currency}</p>
      <p>Status: <strong>${order.status === 'paid' ? 'Paid' : 'Awaiting payment'}</strong></p>${pay}${returns.join('')}`,
    );
  });

  // Webhooks need the raw body to check the signature, so this route parses nothing itself.
  app.register(async (hooks) => {
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    hooks.post('/webhooks/paydesk', async (req, reply) => {
      let event: WebhookEvent;
      try {
        event = paydesk.webhooks.verify(req.body as Buffer, req.headers, webhookSecret());
      } catch (err) {
        return reply.code(400).send({ error: (err as Error).message });
      }
      // Only invoice events concern this shop's orders (it neither refunds nor follows collections).
      if (
        event.type === 'webhook.test' ||
        event.type === 'refund.ready' ||
        event.type === 'refund.confirmed' ||
        event.type === 'collection.confirmed' ||
        event.type === 'collection.failed'
      ) {
        return { received: true };
      }
      const order = orders.get(event.data.invoice.order_id ?? '');
      // Only events of the invoice this order was sent to.
      if (order?.invoiceId !== event.data.invoice.id) return { received: true };
      // Fulfil only on invoice.paid. The payer may have paid in parts, on different networks.
      if (event.type === 'invoice.paid') {
        order.status = 'paid';
        order.paidWith = event.data.invoice.payments
          .filter((p) => p.status === 'confirmed')
          .map((p) => `${p.amount} ${p.currency} on ${p.network}`);
      }
      // A token or network the invoice does not take: never counted; the customer should hear of it.
      if (event.type === 'invoice.payment_unaccepted') {
        const p = event.data.payment;
        order.unaccepted.set(`${p.tx_hash}:${p.currency}`, `${p.amount} ${p.currency} on ${p.network}`);
      }
      return { received: true };
    });
  });
  return app;
}

function page(reply: FastifyReply, title: string, body: string) {
  return reply.type('text/html; charset=utf-8').send(`<!doctype html><html lang="en"><meta charset="utf-8">
    <title>${title}</title><body><h1>${title}</h1>${body}</body></html>`);
}
