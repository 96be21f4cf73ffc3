import { type Html, html } from '../web/html.js';
import type { Translator } from './i18n/i18n.js';
import { keyOf } from './methods.js';
import { methodText } from './payments.js';
import type { Checkout } from './service.js';

/**
 * "Pay with" (contract §15): one radio per payment method, in a GET form, so that the choice is the
 * URL's `?method=` with or without the script. Without it the payer picks one and presses "Show
 * payment details"; with it, pay.js hides that button, loads the chosen method's page as soon as a
 * radio changes and swaps it in. A fieldset with its legend is the group's name for every reader;
 * role="radiogroup" makes it the radio group the contract names.
 */
export function methodChooser(c: Checkout, self: string, tr: Translator): Html {
  const current = keyOf(c.method);
  const option = (m: { network: string; currency: string }) => {
    const key = keyOf(m);
    const id = `method-${m.network}-${m.currency}`;
    return html`<label class="method-option" for="${id}"><input type="radio" id="${id}" name="method" value="${key}"${key === current ? html` checked` : ''}><span>${methodText(c, tr, m)}</span></label>`;
  };
  return html`<form class="methods" method="get" action="${self}" data-methods>
<fieldset class="methods-group" role="radiogroup" aria-labelledby="methods-legend">
<legend id="methods-legend" class="field-label">${tr.t('methods.legend')}</legend>
<div class="method-options">${c.methods.map(option)}</div>
</fieldset>
<input type="hidden" name="lang" value="${tr.lang}">
<button type="submit" class="button button-secondary" data-methods-submit>${tr.t('methods.submit')}</button>
</form>`;
}
