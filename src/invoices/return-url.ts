import { isIP } from 'node:net';
import { type ExplainedFormat, explainedFormat } from '../http/validation.js';

/** Contract §12: redirect_url and cancel_url are at most 2,000 characters. */
export const MAX_RETURN_URL_LENGTH = 2000;

type Check = { ok: true } | { ok: false; rule: string; message: string };

/**
 * The rule for redirect_url and cancel_url (contract §12): an absolute `https://` URL, or `http://`
 * to a loopback address when `allowPrivate` (PAYDESK_WEBHOOK_ALLOW_PRIVATE, local development). The
 * payer's browser follows it, not our server, so no DNS is needed; but the text is checked as typed,
 * not only as the WHATWG parser reads it: `https:example.com`, `https:\\evil.example` or a tab inside
 * are all "fixed" by the parser, and a URL that only works after fixing is refused instead.
 */
export function checkReturnUrl(value: string, field: string, allowPrivate: boolean): Check {
  if (value.length > MAX_RETURN_URL_LENGTH) {
    return fail('max_length', `${field} must be at most ${MAX_RETURN_URL_LENGTH} characters long`);
  }
  const scheme = /^(https?):\/\//i.exec(value)?.[1]?.toLowerCase();
  // Printable ASCII only, no space or backslash: non-ASCII must be percent-encoded (or punycode).
  if (!scheme || !/^[\x21-\x5b\x5d-\x7e]+$/.test(value)) {
    return fail('format', `${field} must be an absolute URL such as https://shop.example/orders/42`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('format', `${field} must be an absolute URL such as https://shop.example/orders/42`);
  }
  if (url.username || url.password) {
    return fail('credentials', `${field} must not contain a user name or password`);
  }
  if (scheme === 'http' && !(allowPrivate && isLoopback(url.hostname))) {
    return fail(
      'https_required',
      allowPrivate
        ? `${field} must start with https:// (http:// only to localhost or 127.0.0.1)`
        : `${field} must start with https://`,
    );
  }
  return { ok: true };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function fail(rule: string, message: string): Check {
  return { ok: false, rule, message };
}

export const RETURN_URL_FORMAT = 'return-url';

/** The format of the two fields, for this server's setting (app.ts registers it with the config's). */
export function returnUrlFormat(allowPrivate: boolean): ExplainedFormat {
  return explainedFormat(RETURN_URL_FORMAT, (value, field) => checkReturnUrl(value, field, allowPrivate));
}
