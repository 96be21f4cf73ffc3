import type { Translator } from '../checkout/i18n/i18n.js';
import { type Html, html } from '../web/html.js';
import { langQuery, tillDocument } from './layout.js';

export type LockNotice =
  | { kind: 'wrong'; remaining: number }
  | { kind: 'locked'; minutes: number }
  | undefined;

function notice(n: LockNotice, tr: Translator): Html {
  if (!n) return html``;
  const text =
    n.kind === 'locked'
      ? tr.t('pos.lock.locked', { minutes: String(n.minutes) })
      : n.remaining > 0
        ? tr.t('pos.lock.wrong', { count: String(n.remaining) })
        : tr.t('pos.lock.locked', { minutes: '15' });
  return html`<p class="till-alert" role="alert" id="pin-error">${text}</p>`;
}

/** The till before its PIN: only the till's name, nothing of its sales. */
export function lockPage(
  root: string,
  till: { id: string; name: string },
  tr: Translator,
  n?: LockNotice,
): string {
  const main = html`<main class="till-card till-lock">
<p class="till-name">${till.name}</p>
<h1>${tr.t('pos.lock.heading')}</h1>
${notice(n, tr)}
<form method="post" action="${root}${till.id}/unlock${langQuery(tr)}">
<label for="pin">${tr.t('pos.lock.pin')}</label>
<input id="pin" name="pin" type="password" inputmode="numeric" autocomplete="off" pattern="[0-9]*" maxlength="12" required${n ? html` aria-describedby="pin-error"` : ''} autofocus>
<button type="submit" class="till-button till-primary">${tr.t('pos.lock.unlock')}</button>
</form>
</main>`;
  return tillDocument({ root, title: till.name, tr, main });
}
