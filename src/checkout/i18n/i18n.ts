import i18next from 'i18next';
import { type Html, html, raw } from '../../web/html.js';
import { en, type MessageKey, type Messages } from './en.js';
import { es } from './es.js';
import { pt } from './pt.js';
import { ru } from './ru.js';
import { tr } from './tr.js';
import { zh } from './zh.js';

/** The page's languages, English first (the fallback), each with its name in itself (the switcher). */
/** `locale` is what Intl formats with: English dates read "21 Nov 2026", not "Nov 21, 2026". */
export const LANGUAGES = {
  en: { name: 'English', locale: 'en-GB', messages: en },
  es: { name: 'Español', locale: 'es', messages: es },
  pt: { name: 'Português', locale: 'pt', messages: pt },
  ru: { name: 'Русский', locale: 'ru', messages: ru },
  tr: { name: 'Türkçe', locale: 'tr', messages: tr },
  zh: { name: '中文', locale: 'zh', messages: zh },
} as const satisfies Record<string, { name: string; locale: string; messages: Messages }>;

export type Language = keyof typeof LANGUAGES;
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as Language[];

const isLanguage = (code: string): code is Language => Object.hasOwn(LANGUAGES, code);

// One i18next instance for the process, loaded synchronously from the catalogues above: no backend,
// no detection plugin (negotiate() below decides), and no escaping of its own (html`` escapes).
const i18n = i18next.createInstance();
void i18n.init({
  initAsync: false,
  resources: Object.fromEntries(LANGUAGE_CODES.map((l) => [l, { translation: LANGUAGES[l].messages }])),
  lng: 'en',
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * The page's language: a supported `?lang=` wins, then the best supported language of the
 * Accept-Language header by its q-values (a region or script subtag matches its language: pt-BR →
 * pt, zh-Hans-CN → zh), then English.
 */
export function negotiate(acceptLanguage: string | undefined, override: string | undefined): Language {
  const wanted = override?.toLowerCase();
  if (wanted && isLanguage(wanted)) return wanted;
  const ranges = (acceptLanguage ?? '')
    .split(',')
    .slice(0, 32) // a header is the client's text: bound the work
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.q > 0 && isLanguage(r.lang))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return (ranges[0]?.lang as Language | undefined) ?? 'en';
}

export type Vars = Record<string, string | Html>;

export interface Translator {
  lang: Language;
  /** The locale Intl formats amounts and dates with. */
  locale: string;
  /** Plain text (attributes, titles, the script's messages). */
  t(key: MessageKey, vars?: Record<string, string>): string;
  /** Markup: the message escaped, with Html values (an amount in <strong>) inserted as they are. */
  h(key: MessageKey, vars?: Vars): Html;
}

export function translator(lang: Language): Translator {
  const fixed = i18n.getFixedT(lang);
  const t = (key: MessageKey, vars: Record<string, string> = {}) => fixed(key, vars) as string;
  return {
    lang,
    locale: LANGUAGES[lang].locale,
    t,
    h(key, vars = {}) {
      // Each value becomes a marker that survives escaping, then the escaped value or the markup.
      const markers: Record<string, string> = {};
      for (const name of Object.keys(vars)) markers[name] = `\uE000${name}\uE000`;
      const text = html`${t(key, markers)}`.value;
      return raw(text.replace(/\uE000(\w+)\uE000/g, (_, name: string) => html`${vars[name] ?? ''}`.value));
    },
  };
}
