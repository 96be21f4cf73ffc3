/** Where mail goes out (contract §25): SMTP_URL and PAYDESK_MAIL_FROM, checked once at start-up. */
export interface MailSettings {
  /** The SMTP server's URL as given, credentials included. A secret: never log it; log `server`. */
  readonly url: string;
  /** `smtp://host:port` or `smtps://host:port` without credentials: what a log line may name. */
  readonly server: string;
  /** The From of every mail: `billing@shop.example` or `Shop <billing@shop.example>`. */
  readonly from: string;
}

export class MailSettingsError extends Error {}

// One address: a local part and a domain with a dot, no spaces or angle brackets.
const ADDRESS = /^[^\s<>@"]+@[^\s<>@"]+\.[^\s<>@"]+$/;
// An optional display name (no angle brackets, quotes or line breaks) before `<address>`.
const NAMED = /^([^<>"\r\n]{1,100}) <([^<>]+)>$/;

/** A mailbox as From may hold it; no line break can reach a header through it. */
export function isMailbox(value: string): boolean {
  if (ADDRESS.test(value)) return true;
  const named = NAMED.exec(value);
  return named !== null && ADDRESS.test(named[2] ?? '');
}

/**
 * The mail settings, or undefined when SMTP_URL is unset (then nothing is queued or sent). Errors
 * name the variable and the rule, never the URL: it may carry a password.
 */
export function mailSettings(
  smtpUrl: string | undefined,
  from: string | undefined,
): MailSettings | undefined {
  if (smtpUrl === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(smtpUrl);
  } catch {
    throw new MailSettingsError(
      'SMTP_URL: not a URL; expected smtp://[user:password@]host[:port] or smtps://…',
    );
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new MailSettingsError(
      'SMTP_URL: the scheme must be smtp:// (STARTTLS when offered) or smtps:// (TLS)',
    );
  }
  if (!parsed.hostname)
    throw new MailSettingsError('SMTP_URL: a host is needed, e.g. smtp://smtp.example.com:587');
  if (parsed.pathname.replace(/^\/+/, '') !== '' || parsed.hash) {
    throw new MailSettingsError('SMTP_URL: no path or fragment; options go in the query string');
  }
  if (from === undefined) {
    throw new MailSettingsError(
      'PAYDESK_MAIL_FROM is required with SMTP_URL: the From of every mail, e.g. billing@shop.example',
    );
  }
  if (!isMailbox(from)) {
    throw new MailSettingsError(
      'PAYDESK_MAIL_FROM: expected an address (billing@shop.example) or a name and an address (Shop <billing@shop.example>)',
    );
  }
  const port = parsed.port ? `:${parsed.port}` : '';
  return Object.freeze({ url: smtpUrl, server: `${parsed.protocol}//${parsed.hostname}${port}`, from });
}
