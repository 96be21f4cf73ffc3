import type { Transporter } from 'nodemailer';
import type { MailSettings } from './settings.js';

export interface OutgoingMail {
  /** The delivery's id: the Message-ID is made from it, the same on every attempt, so receivers dedupe. */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What a failed attempt tells: retry later, or give up (the server refused this mail for good). */
export interface SendFailure {
  permanent: boolean;
  /** The server's reply or the network error: never the server's URL or its credentials. */
  error: string;
}

export interface MailSender {
  /** Resolves undefined when the server accepted the mail. */
  send(mail: OutgoingMail): Promise<SendFailure | undefined>;
  close(): void;
}

/** The Message-ID of a delivery: `<mail_…@the From's domain>`. */
export function messageId(id: string, from: string): string {
  const domain = /@([^\s>]+)>?$/.exec(from)?.[1] ?? 'paydesk.invalid';
  return `<${id}@${domain}>`;
}

/**
 * Sends through the configured SMTP server with nodemailer: a connection per mail (mail is rare:
 * receipts and notices, not bulk), every wait bounded by `timeoutMs`.
 */
export function smtpSender(settings: MailSettings, timeoutMs: number): MailSender {
  // nodemailer is loaded with the first mail, not at start: most instances send none for long, and a
  // server without SMTP_URL never makes a sender (about 2.5 MB of memory, issue 37).
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({
        url: settings.url,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        logger: false,
      }),
    ));
  return {
    async send(mail) {
      try {
        await (await open()).sendMail({
          from: settings.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: messageId(mail.id, settings.from),
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
        return undefined;
      } catch (err) {
        return failure(err);
      }
    },
    // A sender whose transport never opened has nothing to close (and a failed open was already
    // reported as that mail's failure).
    close: () => void transport?.then((t) => t.close()).catch(() => {}),
  };
}

function failure(err: unknown): SendFailure {
  const e = err as {
    permanent?: boolean;
    command?: string;
    response?: string;
    code?: string;
    message?: string;
  };
  // A refused login is the operator's to fix, not this mail's fault: retried, like a 4xx.
  const permanent = e.permanent === true && !/^AUTH/i.test(e.command ?? '');
  const error = (e.response ?? `${e.code ?? 'ERROR'}: ${e.message ?? String(err)}`).slice(0, 500);
  return { permanent, error };
}
