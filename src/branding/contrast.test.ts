import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CARD_BACKGROUNDS,
  checkBrandColor,
  contrast,
  darkSchemeFill,
  MIN_FILL_CONTRAST,
  MIN_TEXT_CONTRAST,
  textColorOn,
} from './contrast.js';

const hex = fc
  .tuple(fc.nat(255), fc.nat(255), fc.nat(255))
  .map((rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`);

describe('brand colour contrast (WCAG 2.2)', () => {
  test('the reference ratios: black on white is 21:1, a colour on itself 1:1', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#777777')).toBe(1);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  test('every accepted colour stands out 3:1 in both schemes, and its derived text reaches 4.5:1', () => {
    fc.assert(
      fc.property(hex, (color) => {
        const check = checkBrandColor(color);
        expect(check.ok).toBe(contrast(color, CARD_BACKGROUNDS.light) >= MIN_FILL_CONTRAST);
        if (!check.ok) return;
        const dark = darkSchemeFill(color);
        expect(contrast(dark, CARD_BACKGROUNDS.dark)).toBeGreaterThanOrEqual(MIN_FILL_CONTRAST);
        for (const fill of [color, dark]) {
          expect(contrast(fill, textColorOn(fill))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        }
        // A colour that already stands out on the dark card is kept as it is.
        if (contrast(color, CARD_BACKGROUNDS.dark) >= MIN_FILL_CONTRAST) expect(dark).toBe(color);
      }),
      { numRuns: 5000 },
    );
  });

  test('refuses a colour too light for the page, with the ratio and the fix; accepts typical brand colours', () => {
    for (const ok of ['#635bff', '#0070f3', '#e63946', '#16a34a', '#4338CA'])
      expect(checkBrandColor(ok).ok, ok).toBe(true);
    expect(checkBrandColor('#ffd700')).toMatchObject({
      ok: false,
      rule: 'contrast',
      message: expect.stringMatching(/1\.\d\d:1 against the payment page.*darker shade/),
    });
    expect(checkBrandColor('#ffffff')).toMatchObject({ ok: false, rule: 'contrast' });
    // Navy is accepted, and lightened for the dark card only.
    expect(checkBrandColor('#1e3a8a').ok).toBe(true);
    expect(darkSchemeFill('#1e3a8a')).not.toBe('#1e3a8a');
    expect(checkBrandColor('red')).toMatchObject({ ok: false, rule: 'format' });
    expect(checkBrandColor('#fff')).toMatchObject({ ok: false, rule: 'format' });
  });

  test("the backgrounds checked are the page's own (--card in web/assets/base.css)", () => {
    const css = readFileSync(new URL('../web/assets/base.css', import.meta.url), 'utf8');
    const cards = [...css.matchAll(/--card:\s*(#[0-9a-f]{6});/g)].map((m) => m[1]);
    expect(cards).toEqual([CARD_BACKGROUNDS.light, CARD_BACKGROUNDS.dark]);
  });
});
