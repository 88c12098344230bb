import type Nodemailer from 'nodemailer';
import { loadWhenUsed } from '../../lib/load-when-used.js';

/** nodemailer, loaded when a mailer is made (`SMTP_URL`; {@link loadWhenUsed}). */
const nodemailer = loadWhenUsed<typeof Nodemailer>('nodemailer');

/** The longest one send may take by default, ms (connect, greeting, envelope, data and its reply). */
export const MAIL_SEND_TIMEOUT_MS = 20_000;

/** Sends a rendered mail over SMTP. */
export interface Mailer {
  /**
   * Sends one mail; `messageId` is the same on a retry, so a receiver can tell a repeat. Ends
   * within {@link Mailer.sendTimeoutMs}: past it the connection is closed and the send fails.
   * @throws on an SMTP failure or the timeout.
   */
  send(mail: { to: string; subject: string; text: string; messageId: string }): Promise<void>;
  /** The most one `send` takes, ms, however slowly the server answers (the mail loop sizes its rounds by it). */
  readonly sendTimeoutMs: number;
  /** Whether the SMTP server answers (connects and greets). */
  verify(): Promise<boolean>;
  close(): void;
}

/**
 * A nodemailer SMTP transport for `SMTP_URL` (`smtp://host:port`, `smtps://user:pass@host`),
 * sending from `from` (`SMTP_FROM`). Short timeouts: a mail that cannot go now waits in the outbox.
 * A whole send is bounded by `options.sendTimeoutMs` (default {@link MAIL_SEND_TIMEOUT_MS}):
 * nodemailer's own timeouts bound each step, not their sum.
 */
export function createMailer(smtpUrl: string, from: string, options: { sendTimeoutMs?: number } = {}): Mailer {
  const url = new URL(smtpUrl);
  const sendTimeoutMs = options.sendTimeoutMs ?? MAIL_SEND_TIMEOUT_MS;
  const transport = nodemailer().createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 25)),
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    connectionTimeout: Math.min(5000, sendTimeoutMs),
    greetingTimeout: Math.min(5000, sendTimeoutMs),
    socketTimeout: Math.min(10_000, sendTimeoutMs),
    // A loopback or private receiver without TLS (tests, a relay on the host) is allowed.
    tls: { rejectUnauthorized: url.searchParams.get('tls_verify') !== 'false' },
    ignoreTLS: url.searchParams.get('starttls') === 'false',
  });
  return {
    sendTimeoutMs,
    async send(mail) {
      // nodemailer closes the connection when the signal aborts: nothing of this send goes on after it.
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        signal: AbortSignal.timeout(sendTimeoutMs),
      });
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
