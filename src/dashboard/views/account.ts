import { MIN_PASSWORD_LENGTH } from '../../users/password.js';
import { html } from '../../web/html.js';
import { qrSvg } from '../../web/qr.js';
import type { DashboardContext } from '../context.js';
import { csrf, errorSummary, type PageMessage, ROOT, shell } from '../layout.js';
import { secretGone, secretLines } from './secret.js';

export function accountPage(
  ctx: DashboardContext,
  opts: { errors?: readonly PageMessage[]; notice?: string | undefined; codesLeft?: number } = {},
): string {
  const s = ctx.session;
  return shell(
    ctx,
    null,
    'Your account',
    html`<h1>Your account</h1>
<p class="muted">${s.email} · ${s.role}</p>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${errorSummary(opts.errors ?? [])}
<section class="panel" aria-labelledby="password-heading"><h2 id="password-heading">Change password</h2>
<form method="post" action="${ROOT}/account/password" novalidate>${csrf(ctx)}
<input type="text" name="username" autocomplete="username" value="${s.email}" hidden>
<div class="field"><label for="current_password">Current password</label><input id="current_password" name="current_password" type="password" autocomplete="current-password" required></div>
<div class="field"><label for="new_password">New password</label><input id="new_password" name="new_password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required aria-describedby="new-hint"><p class="hint" id="new-hint">At least ${MIN_PASSWORD_LENGTH} characters. Your other sessions end at once.</p></div>
<div class="actions"><button type="submit" class="button button-primary">Change password</button></div>
</form></section>
<section class="panel" aria-labelledby="totp-heading"><h2 id="totp-heading">Two-factor authentication</h2>
${
  s.totpEnabled
    ? html`<p>On: signing in asks for a code from your authenticator app.</p>
${recoveryPanel(ctx, opts.codesLeft ?? 0)}
<h3>Turn off two-factor</h3>
<form method="post" action="${ROOT}/account/totp/disable" novalidate>${csrf(ctx)}
<input type="text" name="username" autocomplete="username" value="${s.email}" hidden>
<div class="field"><label for="confirm">Password or code from your app</label><input id="confirm" name="confirm" type="password" autocomplete="current-password" required></div>
<div class="actions"><button type="submit" class="button button-danger">Turn off two-factor</button></div></form>`
    : html`<p>Off. Add a code from an authenticator app (RFC 6238 TOTP) to every sign-in.</p>
<form method="post" action="${ROOT}/account/totp/begin">${csrf(ctx)}<button type="submit" class="button">Set up two-factor</button></form>`
}</section>`,
  );
}

export function enrolPage(
  ctx: DashboardContext,
  enrolment: { secret: string; uri: string },
  errors: readonly PageMessage[] = [],
): string {
  return shell(
    ctx,
    null,
    'Set up two-factor',
    html`<h1>Set up two-factor</h1>
${errorSummary(errors)}
<div class="panel">
<p>Scan this code with your authenticator app, or type the key below into it, then enter the code it shows.</p>
<div class="qr">${qrSvg(enrolment.uri, 'QR code to add Paydesk to an authenticator app')}</div>
<p>Key: <code>${enrolment.secret}</code></p>
<form method="post" action="${ROOT}/account/totp/confirm" novalidate>${csrf(ctx)}
<div class="field"><label for="code">Code</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required></div>
<div class="actions"><button type="submit" class="button button-primary">Turn on two-factor</button><a class="button" href="${ROOT}/account">Cancel</a></div>
</form></div>`,
  );
}

/** How many recovery codes are left, and new ones for the password (a session alone is not enough). */
function recoveryPanel(ctx: DashboardContext, left: number) {
  const s = ctx.session;
  return html`<h3>Recovery codes</h3>
<p>${left === 1 ? '1 unused recovery code' : `${left} unused recovery codes`} left: each signs you in once without your phone.</p>
<form method="post" action="${ROOT}/account/recovery-codes" novalidate>${csrf(ctx)}
<input type="text" name="username" autocomplete="username" value="${s.email}" hidden>
<div class="field"><label for="codes_password">Password</label><input id="codes_password" name="current_password" type="password" autocomplete="current-password" required aria-describedby="codes-hint"><p class="hint" id="codes-hint">New codes replace all the old ones.</p></div>
<div class="actions"><button type="submit" class="button">New recovery codes</button></div>
</form>`;
}

/** The recovery codes, on the first load of the page after they were made; gone on a reload. */
export function recoveryCodesPage(ctx: DashboardContext, codes: readonly string[] | undefined): string {
  return shell(
    ctx,
    null,
    'Recovery codes',
    html`<h1>Recovery codes</h1>
${
  codes === undefined
    ? secretGone('Recovery codes', 'If you did not keep them, make new ones on your account page.')
    : secretLines(
        'recovery-codes',
        'Recovery codes',
        codes,
        'Keep these somewhere safe, apart from your phone: each one signs you in once in place of a code from your app.',
      )
}
<p><a class="button" href="${ROOT}/account">Done</a></p>`,
  );
}
