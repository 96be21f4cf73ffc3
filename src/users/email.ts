/** Dashboard sign-in addresses: one stored form, so that the same person is always the same user. */
export const MAX_EMAIL_LENGTH = 254;

export type EmailResult = { ok: true; email: string } | { ok: false; rule: string; message: string };

/**
 * Trimmed and lower-cased. Only ASCII addresses are accepted: internationalised addresses are rare in
 * business mail, and a look-alike Unicode character (Cyrillic "а" for "a") would let two users that
 * read the same sign in apart. An internationalised domain can be given in its punycode (xn--) form.
 */
export function parseEmail(input: string): EmailResult {
  const email = input.trim().toLowerCase();
  if (email.length === 0) return { ok: false, rule: 'required', message: 'Enter an email address' };
  if (email.length > MAX_EMAIL_LENGTH) {
    return {
      ok: false,
      rule: 'max_length',
      message: `The email address must be at most ${MAX_EMAIL_LENGTH} characters`,
    };
  }
  if (/[^\x21-\x7e]/.test(email)) {
    return {
      ok: false,
      rule: 'ascii',
      message:
        'The email address must use ASCII letters only (give an international domain in its xn-- form)',
    };
  }
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (
    at <= 0 ||
    local.length > 64 ||
    !/^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local) ||
    !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)
  ) {
    return { ok: false, rule: 'email', message: 'Enter an email address such as name@example.com' };
  }
  return { ok: true, email };
}
