/**
 * WCAG 2.2 contrast for the project's brand colour. The page uses it as the fill of its main buttons
 * ("Open in wallet", "Return to …") and of the initial's badge, never as text on the page: no single
 * colour reaches 4.5:1 as text against both a white and a near-black background. So:
 * - in the light scheme (the default) the colour is used exactly as given, and must stand out from
 *   the white card: 3:1, WCAG's minimum for the parts of a control (1.4.11 non-text contrast). A colour
 *   that fails (yellow, pastels) is refused, with the ratio and the way to fix it;
 * - in the dark scheme a colour too dark for the dark card (navy, indigo) is lightened, keeping its
 *   hue, just enough to reach 3:1 there (darkSchemeFill);
 * - the text on a fill is black or white, whichever contrasts more (derived, never asked for): for
 *   every fill the two rules above allow that is at least 4.5:1 (1.4.3, AA). contrast.test.ts checks
 *   all three over random colours.
 */

/** The card's background in each scheme (--card in src/web/assets/base.css). */
export const CARD_BACKGROUNDS = { light: '#ffffff', dark: '#161b24' } as const;
export const MIN_FILL_CONTRAST = 3;
export const MIN_TEXT_CONTRAST = 4.5;

export const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** WCAG relative luminance of `#rrggbb`. */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The text colour for a fill: black or white, whichever contrasts more. */
export function textColorOn(fill: string): '#000000' | '#ffffff' {
  return contrast(fill, '#000000') >= contrast(fill, '#ffffff') ? '#000000' : '#ffffff';
}

export type ColorCheck = { ok: true } | { ok: false; rule: string; message: string };

/** Whether `hex` (`#rrggbb`, any case) can be a brand colour; why not, in words, when it cannot. */
export function checkBrandColor(hex: string, field = 'brand_color'): ColorCheck {
  const color = hex.toLowerCase();
  if (!HEX_COLOR.test(color)) {
    return { ok: false, rule: 'format', message: `${field} must be a hex colour such as #4338ca` };
  }
  const ratio = contrast(color, CARD_BACKGROUNDS.light);
  if (ratio < MIN_FILL_CONTRAST) {
    return {
      ok: false,
      rule: 'contrast',
      message: `${field} ${color} has a contrast of ${ratio.toFixed(2)}:1 against the payment page (${CARD_BACKGROUNDS.light}); its buttons need at least ${MIN_FILL_CONTRAST}:1 (WCAG 1.4.11): choose a darker shade`,
    };
  }
  return { ok: true };
}

/** The fill for the dark scheme: the colour itself, or its lightest-needed tint (mixed with white). */
export function darkSchemeFill(hex: string): string {
  for (let step = 0; step <= 50; step++) {
    const tint = mix(hex, step / 50);
    if (contrast(tint, CARD_BACKGROUNDS.dark) >= MIN_FILL_CONTRAST) return tint;
  }
  return '#ffffff';
}

function mix(hex: string, towardWhite: number): string {
  const channels = [0, 1, 2].map((i) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
    return Math.round(c + (255 - c) * towardWhite);
  });
  return `#${channels.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** The stylesheet that brands a page: served as /pay/assets/brand-<rrggbb>.css, a URL per colour. */
export function brandStylesheet(hex: string): string {
  const dark = darkSchemeFill(hex);
  return [
    `:root{--brand:${hex};--on-brand:${textColorOn(hex)}}`,
    `@media (prefers-color-scheme: dark){:root{--brand:${dark};--on-brand:${textColorOn(dark)}}}`,
    '',
  ].join('\n');
}
