import { MIN_PASSWORD_LENGTH } from '../../users/password.js';
import { html } from '../../web/html.js';
import { authPage, errorSummary, type PageMessage, ROOT } from '../layout.js';

export function signInPage(
  opts: { email?: string; errors?: readonly PageMessage[]; notice?: string } = {},
): string {
  return authPage(
    'Sign in',
    html`<h1>Sign in to Paydesk</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${errorSummary(opts.errors ?? [])}
<form method="post" action="${ROOT}/sign-in" novalidate>
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${opts.email ?? ''}"></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<div class="actions"><button type="submit" class="button button-primary">Sign in</button></div>
</form>`,
  );
}

export function invitePage(opts: { token: string; email: string; errors?: readonly PageMessage[] }): string {
  return authPage(
    'Set your password',
    html`<h1>Set your password</h1>
<p class="muted">For <strong>${opts.email}</strong>. At least ${MIN_PASSWORD_LENGTH} characters; a passphrase of a few words is easiest to remember.</p>
${errorSummary(opts.errors ?? [])}
<form method="post" action="${ROOT}/invite/${opts.token}" novalidate>
<input type="text" name="username" autocomplete="username" value="${opts.email}" hidden>
<div class="field"><label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required></div>
<div class="actions"><button type="submit" class="button button-primary">Set password</button></div>
</form>`,
  );
}

export function totpPage(errors: readonly PageMessage[] = []): string {
  return authPage(
    'Two-factor code',
    html`<h1>Two-factor code</h1>
<p class="muted">Enter the 6-digit code your authenticator app shows for Paydesk. Without your phone, enter one of your recovery codes instead: each works once.</p>
${errorSummary(errors)}
<form method="post" action="${ROOT}/sign-in/totp" novalidate>
<div class="field"><label for="code">Code</label><input id="code" name="code" type="text" autocomplete="one-time-code" spellcheck="false" autocapitalize="none" maxlength="40" required></div>
<div class="actions"><button type="submit" class="button button-primary">Verify</button></div>
</form>`,
  );
}
