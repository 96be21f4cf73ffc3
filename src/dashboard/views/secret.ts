import { type Html, html } from '../../web/html.js';

/**
 * The one component that shows a secret, once: a read-only field with a Copy button and the warning
 * that it will not be shown again. Never in a URL, never on a later page.
 */
export function secretField(id: string, label: string, value: string, note: string): Html {
  return html`<section class="secret">
<h2>${label}</h2>
<p>${note} You will not see it again.</p>
<label for="${id}" class="visually-hidden">${label}</label>
<div class="secret-row">
<input id="${id}" type="text" readonly value="${value}" autocomplete="off" spellcheck="false">
<button type="button" class="button" data-copy="${id}" hidden>Copy</button>
</div>
<p class="copy-status" id="${id}-status" role="status"></p>
</section>`;
}

/** Where a secret was, on a reload of its page: it was shown once and is gone; what to do if it was lost. */
export function secretGone(label: string, ifLost: string): Html {
  return html`<section class="secret">
<h2>${label}</h2>
<p role="status">This secret was shown once, on this page's first load, and cannot be shown again. ${ifLost}</p>
</section>`;
}

/** Several secrets shown once together (recovery codes): one per line, with one Copy button for all. */
export function secretLines(id: string, label: string, lines: readonly string[], note: string): Html {
  return html`<section class="secret">
<h2>${label}</h2>
<p>${note} You will not see them again.</p>
<pre id="${id}" class="secret-lines" aria-label="${label}">${lines.join('\n')}</pre>
<div class="actions"><button type="button" class="button" data-copy="${id}" hidden>Copy</button></div>
<p class="copy-status" id="${id}-status" role="status"></p>
</section>`;
}
