import { EVENT_TYPES } from '../../events/catalogue.js';
import { type Html, html } from '../../web/html.js';
import { failureReason } from '../../webhooks/reason.js';
import type { AttemptRow } from '../../webhooks/webhook.js';
import { toAttempt } from '../../webhooks/webhook.js';
import type { WebhookEndpointRow } from '../../webhooks/webhook.table.js';
import type { DashboardContext } from '../context.js';
import { badge, csrf, errorSummary, type PageMessage, ROOT, shell, time } from '../layout.js';
import { secretField, secretGone } from './secret.js';

export interface EndpointView {
  endpoint: WebhookEndpointRow;
  attempts: AttemptRow[];
}

export function webhooksPage(ctx: DashboardContext, endpoints: EndpointView[], notice?: string): string {
  const owner = ctx.session.role === 'owner';
  return shell(
    ctx,
    'Webhooks',
    'Webhooks',
    html`<div class="page-head"><h1>Webhooks</h1>
${owner ? html`<form method="get" action="${ROOT}/webhooks/new"><button type="submit" class="button button-primary">Add endpoint</button></form>` : ''}</div>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<p class="muted">Paydesk posts every invoice change of ${ctx.project.name} to these URLs, signed with the Standard Webhooks scheme.</p>
${endpoints.length ? endpoints.map((e, i) => endpointPanel(ctx, e, i, owner)) : html`<p class="panel muted">No endpoints yet.</p>`}`,
  );
}

function endpointPanel(
  ctx: DashboardContext,
  { endpoint: e, attempts }: EndpointView,
  i: number,
  owner: boolean,
): Html {
  const headingId = `endpoint-${i}`;
  const action = (path: string, label: string, cls = 'button button-small') =>
    html`<form method="post" action="${ROOT}/webhooks/${e.id}/${path}" class="inline">${csrf(ctx)}<button type="submit" class="${cls}">${label}</button></form>`;
  return html`<section class="panel" aria-labelledby="${headingId}" tabindex="0">
<h2 id="${headingId}"><code>${e.url}</code></h2>
<dl class="details">
<dt>Status</dt><dd>${badge(e.status)}</dd>
<dt>Events</dt><dd>${e.events.length ? e.events.join(', ') : 'All events'}</dd>
<dt>Added</dt><dd>${time(e.created_at)}</dd>
${e.previous_secret_expires_at && e.previous_secret_expires_at > new Date() ? html`<dt>Previous secret</dt><dd>Still signs until ${time(e.previous_secret_expires_at)}</dd>` : ''}
</dl>
${
  owner
    ? html`<div class="actions">${action('test', 'Send test event')}${action('roll', 'Roll secret')}${
        e.status === 'active'
          ? action('disable', 'Disable', 'button button-small button-danger')
          : action('enable', 'Enable')
      }</div>`
    : ''
}
<h3 class="label">Deliveries</h3>
${
  attempts.length
    ? html`<table><caption class="visually-hidden">Deliveries to ${e.url}, newest first</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Type</th><th scope="col" class="num">Attempt</th><th scope="col">Response</th><th scope="col" class="num">Duration</th><th scope="col">Next attempt</th></tr></thead>
<tbody>${attempts.map((row) => {
        const a = toAttempt(row);
        return html`<tr><td><code>${a.event_id}</code></td><td>${a.type}</td><td class="num">${a.attempt}</td><td>${badge(a.outcome)} ${a.outcome === 'succeeded' ? a.response_status : failureReason(a.response_status, a.error)}</td><td class="num">${a.duration_ms} ms</td><td>${time(row.next_attempt_at)}</td></tr>`;
      })}</tbody></table>`
    : html`<p class="muted">Nothing sent yet.</p>`
}
</section>`;
}

export function newEndpointPage(
  ctx: DashboardContext,
  opts: { url?: string; events?: string[]; errors?: readonly PageMessage[] } = {},
): string {
  const chosen = new Set(opts.events ?? []);
  return shell(
    ctx,
    'Webhooks',
    'Add endpoint',
    html`<h1>Add endpoint</h1>
${errorSummary(opts.errors ?? [])}
<div class="panel"><form method="post" action="${ROOT}/webhooks" novalidate>${csrf(ctx)}
<div class="field"><label for="url">Endpoint URL</label><input id="url" name="url" type="url" maxlength="2048" required value="${opts.url ?? ''}" placeholder="https://shop.example/webhooks/paydesk" aria-describedby="url-hint">
<p class="hint" id="url-hint">An https:// address your server answers on with a 2xx.</p></div>
<fieldset><legend>Events</legend><p class="hint">None ticked means all of them, new ones included.</p>
${EVENT_TYPES.map(
  (t) =>
    html`<label class="check"><input type="checkbox" name="events" value="${t}"${chosen.has(t) ? html` checked` : ''}> ${t}</label>`,
)}</fieldset>
<div class="actions"><button type="submit" class="button button-primary">Add</button><a class="button" href="${ROOT}/webhooks">Cancel</a></div>
</form></div>`,
  );
}

export function secretPage(
  ctx: DashboardContext,
  title: string,
  url: string,
  secret: string | undefined,
  note: string,
): string {
  return shell(
    ctx,
    'Webhooks',
    title,
    html`<h1>${title}</h1>
<p>Endpoint <code>${url}</code></p>
${
  secret === undefined
    ? secretGone('Signing secret', 'If it was not stored, roll the secret to get a new one.')
    : secretField('signing-secret', 'Signing secret', secret, note)
}
<p><a class="button" href="${ROOT}/webhooks">Done</a></p>`,
  );
}
