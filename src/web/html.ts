/** Markup that is already safe: produced by `html` or deliberately marked with `raw`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** Trusted markup, such as an SVG built from numbers; never pass it anything a payer or merchant chose. */
export function raw(markup: string): Html {
  return new Html(markup);
}

/**
 * A tagged template that escapes every interpolated value unless it is already Html, so a merchant's
 * project name can never become markup. Arrays are joined; null, undefined and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] as string;
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] as string);
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}
