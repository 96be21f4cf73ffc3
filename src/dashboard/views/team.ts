import type { AuditRow } from '../../audit/audit.table.js';
import type { DashboardUserRow } from '../../users/user.table.js';
import { html } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { csrf, errorSummary, type PageMessage, ROOT, shell, time } from '../layout.js';
import { secretField, secretGone } from './secret.js';

export function teamPage(
  ctx: DashboardContext,
  users: DashboardUserRow[],
  log: AuditRow[],
  notice?: string,
): string {
  return shell(
    ctx,
    'Team',
    'Team',
    html`<div class="page-head"><h1>Team</h1>
<form method="get" action="${ROOT}/team/invite"><button type="submit" class="button button-primary">Invite user</button></form></div>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<section class="panel" aria-labelledby="users" tabindex="0"><h2 id="users">Users</h2><table>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Last sign-in</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${users.map(
      (
        u,
      ) => html`<tr><td>${u.email}${u.id === ctx.session.userId ? html` <span class="muted">(you)</span>` : ''}${u.password_hash ? '' : html` <span class="badge">invited</span>`}</td><td>${u.role}</td><td>${time(u.last_sign_in_at)}</td>
<td>${u.id === ctx.session.userId ? '' : html`<form method="post" action="${ROOT}/team/${u.id}/remove">${csrf(ctx)}<button type="submit" class="button button-small button-danger">Remove</button></form>`}</td></tr>`,
    )}</tbody></table></section>
<section class="panel" aria-labelledby="audit" tabindex="0"><h2 id="audit">Audit log</h2>
${
  log.length
    ? html`<table><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Subject</th></tr></thead><tbody>${log.map(
        (a) =>
          html`<tr><td>${time(a.created_at)}</td><td>${a.actor_email}</td><td>${a.action}</td><td>${a.target ?? ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">Nothing yet.</p>`
}</section>`,
  );
}

export function invitePage(
  ctx: DashboardContext,
  opts: { email?: string; role?: string; errors?: readonly PageMessage[] } = {},
): string {
  const role = opts.role ?? 'viewer';
  return shell(
    ctx,
    'Team',
    'Invite user',
    html`<h1>Invite user</h1>
${errorSummary(opts.errors ?? [])}
<div class="panel"><form method="post" action="${ROOT}/team/invite" novalidate>${csrf(ctx)}
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" maxlength="254" required value="${opts.email ?? ''}" autocomplete="off"></div>
<div class="field"><label for="role">Role</label><select id="role" name="role">
<option value="viewer"${role === 'viewer' ? html` selected` : ''}>Viewer: reads invoices and webhook deliveries</option>
<option value="owner"${role === 'owner' ? html` selected` : ''}>Owner: everything, keys and team included</option>
</select></div>
<div class="actions"><button type="submit" class="button button-primary">Invite</button><a class="button" href="${ROOT}/team">Cancel</a></div>
</form></div>`,
  );
}

export function invitedPage(
  ctx: DashboardContext,
  user: { email: string; role: string },
  url: string | undefined,
  again: boolean,
): string {
  const { email } = user;
  const title = again ? 'New invite link' : 'User invited';
  const note = again
    ? `${email} is already on the team (${user.role}). Send them this new link: it lets them set a new password, works once and expires in 72 hours. Their earlier links no longer work.`
    : `Send this link to ${email}: it lets them set a password, works once and expires in 72 hours.`;
  return shell(
    ctx,
    'Team',
    title,
    html`<h1>${title}</h1>
${
  url === undefined
    ? secretGone('Invite link', `If it was not sent to ${email}, invite them again: a new link replaces it.`)
    : secretField('invite-link', 'Invite link', url, note)
}
<p><a class="button" href="${ROOT}/team">Done</a></p>`,
  );
}
