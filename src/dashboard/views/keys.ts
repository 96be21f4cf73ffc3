import type { ApiKeyRow } from '../../merchants/merchant.table.js';
import { type Html, html } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { badge, csrf, ROOT, shell, time } from '../layout.js';
import { secretField, secretGone } from './secret.js';

type Key = Omit<ApiKeyRow, 'key_hash'>;

export function keysPage(ctx: DashboardContext, keys: Key[], notice?: string): string {
  const rows = keys.map(
    (k) => html`<tr>
<td>${k.name || html`<span class="muted">Unnamed</span>`}</td>
<td><code>…${k.last4}</code></td>
<td>${time(k.created_at)}</td>
<td>${time(k.last_used_at)}</td>
<td>${badge(k.status)}</td>
<td>${k.status === 'active' ? revokeControl(ctx, k) : ''}</td>
</tr>`,
  );
  return shell(
    ctx,
    'API keys',
    'API keys',
    html`<div class="page-head"><h1>API keys</h1>
<form method="get" action="${ROOT}/api-keys/new"><button type="submit" class="button button-primary">Create key</button></form></div>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<p class="muted">Secret keys of ${ctx.project.name}. Your server sends one as <code>Authorization: Bearer svc_secret_…</code>. A revoked key stops working on the very next request.</p>
<div class="panel" role="region" aria-label="API keys" tabindex="0"><table>
<caption class="visually-hidden">API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="6" class="muted">No keys yet.</td></tr>`}</tbody>
</table></div>`,
  );
}

/** "Revoke" opens a dialog (dashboard.js); without a script it is a link to the same form on its own page. */
function revokeControl(ctx: DashboardContext, k: Key): Html {
  const dialogId = `revoke-${k.id}`;
  return html`<form method="get" action="${ROOT}/api-keys/${k.id}/revoke" class="inline"><button type="submit" class="button button-small button-danger" data-dialog="${dialogId}">Revoke</button></form>
<dialog id="${dialogId}" aria-labelledby="${dialogId}-title">${revokeForm(ctx, k, `${dialogId}-title`, true)}</dialog>`;
}

function revokeForm(ctx: DashboardContext, k: Key, titleId: string, inDialog: boolean): Html {
  return html`<h2 id="${titleId}">Revoke ${k.name || 'this key'} (…${k.last4})?</h2>
<p>Requests with this key fail from the very next one (API_KEY_REVOKED). This cannot be undone.</p>
<form method="post" action="${ROOT}/api-keys/${k.id}/revoke">${csrf(ctx)}
<div class="actions"><button type="submit" class="button button-primary">Revoke key</button>
${inDialog ? html`<button type="button" class="button" data-close>Cancel</button>` : html`<a class="button" href="${ROOT}/api-keys">Cancel</a>`}</div>
</form>`;
}

export function revokePage(ctx: DashboardContext, k: Key): string {
  return shell(
    ctx,
    'API keys',
    'Revoke key',
    html`<div class="panel">${revokeForm(ctx, k, 'revoke-title', false)}</div>`,
  );
}

export function newKeyPage(ctx: DashboardContext): string {
  return shell(
    ctx,
    'API keys',
    'Create key',
    html`<h1>Create key</h1>
<div class="panel"><form method="post" action="${ROOT}/api-keys">${csrf(ctx)}
<div class="field"><label for="name">Name</label><input id="name" name="name" type="text" maxlength="100" autocomplete="off" aria-describedby="name-hint">
<p class="hint" id="name-hint">Where the key is used, such as "Shop backend". Optional.</p></div>
<div class="actions"><button type="submit" class="button button-primary">Create key</button><a class="button" href="${ROOT}/api-keys">Cancel</a></div>
</form></div>`,
  );
}

/** The result page of "Create key": the secret on its first load, and never again. */
export function createdKeyPage(ctx: DashboardContext, k: Key, secret: string | undefined): string {
  return shell(
    ctx,
    'API keys',
    'Key created',
    html`<h1>Key created</h1>
${
  secret === undefined
    ? secretGone('Secret key', 'If it was not stored, revoke this key and create another.')
    : secretField(
        'secret-key',
        'Secret key',
        secret,
        `Store the secret of ${k.name || 'the new key'} in your server's configuration now.`,
      )
}
<p><a class="button" href="${ROOT}/api-keys">Done</a></p>`,
  );
}
