import { en, type MailKey, type MailMessages } from './en.js';
import { es } from './es.js';
import { pt } from './pt.js';
import { ru } from './ru.js';
import { tr } from './tr.js';
import { zh } from './zh.js';

/**
 * The mails' languages: the payment page's six (src/checkout/i18n), English first, the fallback.
 * Kept here rather than imported, since the payment page depends on refunds, which queue mail;
 * templates.test.ts checks that both lists are the same.
 */
export const MAIL_LANGUAGES = { en, es, pt, ru, tr, zh } as const satisfies Record<string, MailMessages>;
export type MailLanguage = keyof typeof MAIL_LANGUAGES;

/** A payer's stored language when it is one of ours, else English. */
export function mailLanguage(code: string | null | undefined): MailLanguage {
  return code && Object.hasOwn(MAIL_LANGUAGES, code) ? (code as MailLanguage) : 'en';
}

/** The message in `language`, its `{{name}}` placeholders filled in as plain text (escaping is the caller's). */
export function message(language: MailLanguage, key: MailKey, values: Record<string, string> = {}): string {
  const template = MAIL_LANGUAGES[language][key] || en[key];
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}
