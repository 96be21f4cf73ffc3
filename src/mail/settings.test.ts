import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { isMailbox } from './settings.js';

// SMTP_URL and PAYDESK_MAIL_FROM (contract §25): unset, no mail; set, checked at start with a line
// that names the variable and never the URL (it may carry a password).

const FROM = 'Shop <billing@shop.example>';
const mail = (env: Record<string, string>) => loadConfig(env).mail;

function refusal(env: Record<string, string>): string {
  try {
    mail(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
}

describe('mail configuration', () => {
  test('without SMTP_URL there is no mail; with it the From is required', () => {
    expect(mail({})).toBeUndefined();
    expect(mail({ PAYDESK_MAIL_FROM: FROM })).toBeUndefined();
    expect(refusal({ SMTP_URL: 'smtp://mail.example:587' })).toMatch(
      /PAYDESK_MAIL_FROM is required with SMTP_URL/,
    );
  });

  test('smtp:// and smtps:// with credentials are taken; the server a log may name has none', () => {
    const settings = mail({
      SMTP_URL: 'smtps://apikey:s3cr3t-pass@smtp.example.com:465',
      PAYDESK_MAIL_FROM: FROM,
    });
    expect(settings).toMatchObject({ server: 'smtps://smtp.example.com:465', from: FROM });
    expect(settings?.url).toContain('s3cr3t-pass');
    expect(mail({ SMTP_URL: 'smtp://localhost:2525', PAYDESK_MAIL_FROM: 'a@b.example' })?.server).toBe(
      'smtp://localhost:2525',
    );
  });

  test('a wrong scheme, a missing host or a bad From stop the start, and never echo the password', () => {
    const cases = [
      ['http://user:hunter2-secret@mail.example', FROM, /scheme must be smtp/],
      ['smtp://user:hunter2-secret@', FROM, /SMTP_URL/],
      ['not a url hunter2-secret', FROM, /not a URL/],
      ['smtp://user:hunter2-secret@mail.example/path', FROM, /no path/],
      ['smtp://user:hunter2-secret@mail.example', 'billing', /PAYDESK_MAIL_FROM: expected an address/],
      ['smtp://user:hunter2-secret@mail.example', 'x <a@b.example>\r\nBcc: c@d.example', /PAYDESK_MAIL_FROM/],
    ] as const;
    for (const [url, from, rule] of cases) {
      const message = refusal({ SMTP_URL: url, PAYDESK_MAIL_FROM: from });
      expect(message).toMatch(rule);
      expect(message).not.toContain('hunter2');
    }
  });

  test('no From that holds a line break, an angle bracket out of place or a quote is a mailbox', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const value = `${a}@${b}.example`;
        if (isMailbox(value)) expect(value).not.toMatch(/[\r\n"]/);
        if (isMailbox(`${a} <x@y.example>`)) expect(a).not.toMatch(/[\r\n<>"]/);
      }),
    );
  });
});
