import { Paydesk } from '@paydesk/node';
import { registerWebhookEndpoint } from './setup.js';
import { buildShop } from './shop.js';

const env = process.env;
const port = Number(env.PORT ?? 4000);
const shopUrl = env.SHOP_URL ?? `http://127.0.0.1:${port}`;
const paydeskUrl = env.PAYDESK_URL ?? 'http://127.0.0.1:3000';
const paydesk = new Paydesk(env.PAYDESK_SECRET_KEY ?? '', { baseUrl: paydeskUrl });

// In production the signing secret comes from where you registered the endpoint (the dashboard);
// for a local try-out, setup.ts registers one with the operator's admin token.
let webhookSecret = env.PAYDESK_WEBHOOK_SECRET ?? '';
if (!webhookSecret && !env.PAYDESK_ADMIN_TOKEN) {
  console.error(
    'Set PAYDESK_WEBHOOK_SECRET (whsec_…), or PAYDESK_ADMIN_TOKEN to register a webhook endpoint.',
  );
  process.exit(1);
}

// Listen first, register after: a port already taken then leaves no endpoint behind at Paydesk.
const host = env.HOST ?? '127.0.0.1';
try {
  await buildShop(paydesk, () => webhookSecret, shopUrl).listen({ port, host });
} catch (err) {
  const reason = (err as { code?: string }).code === 'EADDRINUSE' ? 'the port is in use' : String(err);
  console.error(`The shop cannot listen on ${host}:${port}: ${reason}. Set PORT to a free port.`);
  process.exit(1);
}
if (!webhookSecret && env.PAYDESK_ADMIN_TOKEN) {
  webhookSecret = await registerWebhookEndpoint(paydesk, {
    paydeskUrl,
    adminToken: env.PAYDESK_ADMIN_TOKEN,
    shopUrl,
  });
}
console.log(`Shop listening on ${shopUrl}`);
