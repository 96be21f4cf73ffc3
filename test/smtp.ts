import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../src/db/schema.js';

const SERVER = fileURLToPath(new URL('./smtp/server.cjs', import.meta.url));

/** One message as the SMTP server received and parsed it. */
export interface ReceivedMail {
  user: string | null;
  messageId: string | null;
  from: string | null;
  to: string | null;
  envelopeTo: string[];
  subject: string | null;
  text: string | null;
  html: string | null;
  autoSubmitted: string | null;
}

/** A real SMTP server in a child process (test/smtp/server.cjs), and everything it received. */
export async function startSmtpServer(port = 0) {
  const child: ChildProcess = fork(SERVER, [String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const received: ReceivedMail[] = [];
  const listening = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: { op: string; port?: number; mail?: ReceivedMail }) => {
      if (m.op === 'ready') resolve(m.port as number);
      if (m.op === 'mail' && m.mail) received.push(m.mail);
    });
  });
  return {
    port: listening,
    received,
    /** SMTP_URL for this server, with a login when given. */
    url: (login = '') => smtpUrl(listening, login),
    /** Refuses the next `count` transactions with a 451. */
    failNext: (count: number) => child.send({ op: 'fail', count }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

export const smtpUrl = (port: number, login = '') => `smtp://${login}${login && '@'}127.0.0.1:${port}`;

/** A loopback port nothing listens on (yet): an SMTP server that is down. */
export { freePort } from './process.js';

export type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/**
 * What a payment link records for a payer who gave an address (the links work writes these columns;
 * the mail tests set them directly).
 */
export async function setPayer(
  db: Kysely<Database>,
  invoiceId: string,
  email: string,
  language: string | null,
) {
  await sql`update invoices set payer_email = ${email}, payer_language = ${language} where id = ${invoiceId}`.execute(
    db,
  );
}

/** The invoice's mail rows, oldest first. */
export async function mailRows(db: Kysely<Database>, invoiceId?: string) {
  const rows = await sql<Record<string, unknown>>`select * from mail_deliveries
    where ${invoiceId ?? null}::text is null or invoice_id = ${invoiceId ?? null} order by created_at, kind`.execute(
    db,
  );
  return rows.rows;
}
