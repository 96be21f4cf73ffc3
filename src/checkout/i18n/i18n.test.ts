import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { html } from '../../web/html.js';
import { formatAmount, formatDateTime } from '../format.js';
import { en, type MessageKey } from './en.js';
import { LANGUAGE_CODES, LANGUAGES, negotiate, translator } from './i18n.js';

/** A decimal string as amounts arrive: up to 15 integer digits, up to 18 decimals (amount_paid's scale). */
const decimal = fc
  .tuple(
    fc.stringMatching(/^(0|[1-9][0-9]{0,14})$/),
    fc.option(fc.stringMatching(/^[0-9]{1,18}$/), { nil: undefined }),
  )
  .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`));

describe('amounts in the payer’s locale', () => {
  test('never change a digit: only grouping and the decimal separator differ', () => {
    fc.assert(
      fc.property(decimal, fc.constantFrom(...LANGUAGE_CODES), (value, lang) => {
        const out = formatAmount(LANGUAGES[lang].locale, value);
        expect(out.replace(/[^0-9]/g, '')).toBe(value.replace('.', ''));
        // Reading it back: drop the group separators, turn the decimal separator into a point.
        const parts = new Intl.NumberFormat(LANGUAGES[lang].locale).formatToParts(1.5);
        const point = parts.find((p) => p.type === 'decimal')?.value ?? '.';
        const back = out
          .replace(new RegExp(`[^0-9${point === '.' ? '\\.' : point}]`, 'g'), '')
          .replace(point, '.');
        expect(back).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  test('each language writes amounts its own way', () => {
    const shown = Object.fromEntries(
      LANGUAGE_CODES.map((l) => [l, formatAmount(LANGUAGES[l].locale, '1234567.50')]),
    );
    expect(shown).toEqual({
      en: '1,234,567.50',
      es: '1.234.567,50',
      pt: '1.234.567,50',
      ru: '1\u00a0234\u00a0567,50', // no-break spaces
      tr: '1.234.567,50',
      zh: '1,234,567.50',
    });
  });

  test('dates are UTC in every language', () => {
    const at = new Date('2026-11-21T09:04:05.123Z');
    expect(formatDateTime('en-GB', at)).toBe('21 Nov 2026, 09:04 UTC');
    for (const l of LANGUAGE_CODES) expect(formatDateTime(LANGUAGES[l].locale, at)).toMatch(/\b0?9:04 UTC$/);
  });
});

describe('negotiate: ?lang= first, then Accept-Language, then English', () => {
  test.each([
    ['pt-BR,pt;q=0.9,en;q=0.8', undefined, 'pt'],
    ['fr-FR, zh-Hans-CN;q=0.5, en;q=0.4', undefined, 'zh'],
    ['en;q=0.2, ru;q=0.9', undefined, 'ru'],
    ['es;q=0, tr', undefined, 'tr'],
    ['de, fr', undefined, 'en'],
    [undefined, undefined, 'en'],
    ['ru', 'ES', 'es'],
    ['ru', 'xx', 'ru'],
  ])('Accept-Language %s, ?lang=%s → %s', (header, override, lang) => {
    expect(negotiate(header, override)).toBe(lang);
  });

  test('any header and any ?lang= give a supported language, never an error', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (header, override) => {
          expect(LANGUAGE_CODES).toContain(negotiate(header, override));
        },
      ),
    );
  });
});

describe('catalogues', () => {
  test('every language has every message, with the same placeholders as English', () => {
    for (const lang of LANGUAGE_CODES) {
      const messages = LANGUAGES[lang].messages;
      expect(Object.keys(messages).sort(), lang).toEqual(Object.keys(en).sort());
      for (const key of Object.keys(en) as MessageKey[]) {
        const names = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
        expect(names(messages[key]), `${lang} ${key}`).toEqual(names(en[key]));
        if (lang !== 'en' && key !== 'copy.button')
          expect(messages[key].length, `${lang} ${key}`).toBeGreaterThan(0);
      }
    }
  });

  test('markup goes in only where the view puts it: a merchant name is escaped', () => {
    const tr = translator('es');
    const out = tr.h('paid.text', { merchant: '<img src=x onerror=alert(1)>' }).value;
    expect(out).toBe('¡Gracias! Hemos avisado a &lt;img src=x onerror=alert(1)&gt;.');
    expect(tr.h('waiting.send', { amount: html`<strong>1,00 USDT</strong>`, network: 'Sandbox' }).value).toBe(
      'Envía <strong>1,00 USDT</strong> en la red Sandbox a la dirección de abajo.',
    );
  });
});
