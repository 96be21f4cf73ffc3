import { randomUUID } from 'node:crypto';
import type { Paydesk, WebhookEvent } from '@paydesk/node';
import Fastify, { type FastifyReply } from 'fastify';

interface Order {
  id: string;
  product: string;
  amount: string;
  invoiceId?: string;
  paymentUrl?: string;
  status: 'awaiting payment' | 'paid';
}

const PRODUCT = { name: 'Paydesk mug', amount: '12.50' };

/** The whole Paydesk integration of a small shop: checkout, webhook, order page. */
export function buildShop(paydesk: Paydesk, webhookSecret: string, shopUrl: string) {
  // A real shop keeps its orders in its database; a Map keeps the example short.
  const orders = new Map<string, Order>();
  const app = Fastify();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get('/', async (_req, reply) =>
    page(
      reply,
      PRODUCT.name,
      `<p>${PRODUCT.amount} USDT</p>
      <form method="post" action="/orders"><button>Pay with crypto</button></form>`,
    ),
  );

  // Create the order, then its invoice, and send the customer to Paydesk's payment page.
  app.post('/orders', async (_req, reply) => {
    const order: Order = {
      id: randomUUID(),
      product: PRODUCT.name,
      amount: PRODUCT.amount,
      status: 'awaiting payment',
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
    Object.assign(order, { invoiceId: invoice.id, paymentUrl: invoice.payment_url });
    return reply.redirect(invoice.payment_url, 303);
  });

  app.get<{ Params: { id: string } }>('/orders/:id', async (req, reply) => {
    const order = orders.get(req.params.id);
    if (!order) return reply.code(404).send('No such order');
    const pay = order.status === 'paid' ? '' : `<p><a href="${order.paymentUrl}">Pay with crypto</a></p>`;
    return page(
      reply,
      `Order ${order.id}`,
      `<p>${order.product}, ${order.amount} USDT</p>
      <p>Status: <strong>${order.status === 'paid' ? 'Paid' : 'Awaiting payment'}</strong></p>${pay}`,
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
        event = paydesk.webhooks.verify(req.body as Buffer, req.headers, webhookSecret);
      } catch (err) {
        return reply.code(400).send({ error: (err as Error).message });
      }
      // Fulfil only on invoice.paid, and only for the invoice this order was sent to.
      if (event.type === 'invoice.paid') {
        const order = orders.get(event.data.invoice.order_id ?? '');
        if (order?.invoiceId === event.data.invoice.id) order.status = 'paid';
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
