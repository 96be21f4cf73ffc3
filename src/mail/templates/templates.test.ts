import { describe, expect, test } from 'vitest';
import { LANGUAGE_CODES } from '../../checkout/i18n/i18n.js';
import { MAIL_LANGUAGES, mailLanguage } from './catalogue.js';
import { en } from './en.js';
import { type MailFacts, type MailKind, renderMail } from './render.js';

const facts = (over: Partial<MailFacts> = {}): MailFacts => ({
  kind: 'receipt',
  language: 'en',
  merchant: 'Café <b>"Luna"</b> & Co',
  invoiceId: 'inv_123',
  amount: '25.00',
  currency: 'USDC',
  network: 'Base',
  txHash: '0xabc',
  txUrl: 'https://basescan.org/tx/0xabc?a=1&b=2',
  claimUrl: null,
  livemode: true,
  ...over,
});

describe('mail templates', () => {
  test('speak the payment page’s six languages, every string in each, with the same placeholders', () => {
    expect(Object.keys(MAIL_LANGUAGES).sort()).toEqual([...LANGUAGE_CODES].sort());
    const placeholders = (s: string) => [...s.matchAll(/\{\{\w+\}\}/g)].map((m) => m[0]).sort();
    for (const messages of Object.values(MAIL_LANGUAGES)) {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(messages)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(en[key as keyof typeof en]));
      }
    }
  });

  test('an unknown or missing language is English', () => {
    expect(mailLanguage('es')).toBe('es');
    expect(mailLanguage('de')).toBe('en');
    expect(mailLanguage(null)).toBe('en');
    expect(mailLanguage('__proto__')).toBe('en');
  });

  test('escape every value in the HTML part and keep it as written in the text part', () => {
    for (const kind of ['receipt', 'refund_claim', 'owner_paid', 'owner_after_close'] as MailKind[]) {
      const claimUrl = kind === 'refund_claim' ? 'https://pay.example/refund/abc"><script>' : null;
      const mail = renderMail(facts({ kind, claimUrl }));
      expect(mail.html).not.toMatch(/<b>|<script>|"Luna"/);
      expect(mail.html).toContain('Café &lt;b&gt;&quot;Luna&quot;&lt;/b&gt; &amp; Co');
      expect(mail.html).toContain('href="https://basescan.org/tx/0xabc?a=1&amp;b=2"');
      expect(mail.text).toContain('Café <b>"Luna"</b> & Co');
    }
  });

  test('a subject never carries a line break, and test mode says so', () => {
    const mail = renderMail(facts({ merchant: 'Shop\r\nBcc: x@y.example', livemode: false, language: 'es' }));
    expect(mail.subject).toBe('Recibo de Shop Bcc: x@y.example: 25.00 USDC');
    expect(mail.text).toContain('Modo de prueba');
  });
});
