// A real SMTP server for the mail tests (test/smtp.ts), in a process of its own as a mail provider
// is: smtp-server speaks the protocol, mailparser reads what arrived. Protocol, over the IPC channel:
// → { op: 'ready', port } once listening; → { op: 'mail', mail } for each message accepted;
// ← { op: 'fail', count } refuses the next `count` transactions with a 451 (a transient refusal).
// The port is the first argument (0, or none: any free one). Logins: any user with the password 'right-password'; none needed.
'use strict';
require('../chain/exit-with-parent.cjs');

const { SMTPServer } = require('smtp-server');
const { simpleParser } = require('mailparser');

let failing = 0;

const server = new SMTPServer({
  // Plain SMTP on loopback: no certificate to make, and nodemailer logs in without STARTTLS.
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  allowInsecureAuth: true,
  logger: false,
  onAuth(auth, _session, done) {
    if (auth.password === 'right-password') return done(null, { user: auth.username });
    const err = new Error('Authentication failed');
    err.responseCode = 535;
    return done(err);
  },
  onMailFrom(_address, _session, done) {
    if (failing > 0) {
      failing--;
      const err = new Error('Try again later');
      err.responseCode = 451;
      return done(err);
    }
    return done();
  },
  onData(stream, session, done) {
    simpleParser(stream)
      .then((parsed) => {
        process.send({
          op: 'mail',
          mail: {
            user: session.user ?? null,
            messageId: parsed.messageId ?? null,
            from: parsed.from?.text ?? null,
            to: parsed.to?.text ?? null,
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? null,
            text: parsed.text ?? null,
            html: typeof parsed.html === 'string' ? parsed.html : null,
            autoSubmitted: parsed.headers.get('auto-submitted') ?? null,
          },
        });
        done();
      })
      .catch(done);
  },
});

process.on('message', (m) => {
  if (m.op === 'fail') failing = m.count;
});

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () =>
  process.send({ op: 'ready', port: server.server.address().port }),
);
