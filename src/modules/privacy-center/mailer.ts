import nodemailer from 'nodemailer';

/** Sends a rendered mail over SMTP. */
export interface Mailer {
  /** Sends one mail; `messageId` is the same on a retry, so a receiver can tell a repeat. @throws on an SMTP failure. */
  send(mail: { to: string; subject: string; text: string; messageId: string }): Promise<void>;
  /** Whether the SMTP server answers (connects and greets). */
  verify(): Promise<boolean>;
  close(): void;
}

/**
 * A nodemailer SMTP transport for `SMTP_URL` (`smtp://host:port`, `smtps://user:pass@host`),
 * sending from `from` (`SMTP_FROM`). Short timeouts: a mail that cannot go now waits in the outbox.
 */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 25)),
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10_000,
    // A loopback or private receiver without TLS (tests, a relay on the host) is allowed.
    tls: { rejectUnauthorized: url.searchParams.get('tls_verify') !== 'false' },
    ignoreTLS: url.searchParams.get('starttls') === 'false',
  });
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId });
    },
    async verify() {
      try {
        return await transport.verify();
      } catch {
        return false;
      }
    },
    close() {
      transport.close();
    },
  };
}
