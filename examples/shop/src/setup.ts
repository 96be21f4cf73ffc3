import type { Paydesk } from '@paydesk/node';

/**
 * For trying the shop locally: registers `<shopUrl>/webhooks/paydesk` as a webhook endpoint of the
 * key's project through Paydesk's admin API, replacing one registered by an earlier start, and returns
 * its signing secret. (The secret is shown only when an endpoint is created, so a restart makes a new
 * one.) Paydesk accepts an http:// URL on this machine only with PAYDESK_WEBHOOK_ALLOW_PRIVATE=true.
 */
export async function registerWebhookEndpoint(
  paydesk: Paydesk,
  options: { paydeskUrl: string; adminToken: string; shopUrl: string },
): Promise<string> {
  const url = `${options.shopUrl}/webhooks/paydesk`;
  const { project } = await paydesk.me();
  const admin = adminApi(options.paydeskUrl, options.adminToken);
  const endpoints: Array<{ id: string; url: string }> = await admin(
    'GET',
    `/projects/${project.id}/webhook-endpoints`,
  );
  for (const old of endpoints.filter((e) => e.url === url))
    await admin('DELETE', `/webhook-endpoints/${old.id}`);
  const created: { secret: string } = await admin('POST', `/projects/${project.id}/webhook-endpoints`, {
    url,
  });
  return created.secret;
}

function adminApi(baseUrl: string, token: string) {
  return async <T>(method: string, path: string, body?: object): Promise<T> => {
    const res = await fetch(`${baseUrl}/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body && JSON.stringify(body),
    });
    const envelope = (await res.json()) as { message?: string; data: T };
    if (!res.ok) throw new Error(`Paydesk admin API, ${method} ${path}: ${envelope.message ?? res.status}`);
    return envelope.data;
  };
}
