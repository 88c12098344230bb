/** A real SMTP receiver on loopback (the smtp-server package) that keeps what arrives, for mail tests. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One received mail: envelope, headers we read, and the decoded plain-text body. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  messageId: string;
  text: string;
  raw: string;
}

/** Decodes a quoted-printable body (RFC 2045 §6.7): soft breaks and `=XX` bytes, as UTF-8. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
  try {
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  } catch {
    return bytes;
  }
}

/** Decodes an RFC 2047 encoded-word header (`=?UTF-8?Q?…?=` or `?B?`). */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replaceAll('_', ' ')),
  );
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return {
    from,
    to,
    subject: decodeHeader(header('Subject')),
    messageId: header('Message-ID'),
    text: text.replace(/\r\n/g, '\n'),
    raw,
  };
}

/** A running receiver: its `smtp://127.0.0.1:<port>` URL and the mails received so far. */
export interface SmtpReceiver {
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** Resolves once `n` mails in all arrived, or fails after `ms`. */
  waitFor(n: number, ms?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1 (`port` 0: any free port), no TLS, no authentication. With
 * `options.delayMs`, a slow server: each mail is kept on arrival, and accepted (250) that long after.
 */
export async function startSmtpReceiver(port = 0, options: { delayMs?: number } = {}): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = session.envelope;
        const from = envelope.mailFrom === false ? '' : envelope.mailFrom.address;
        mails.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            from,
            envelope.rcptTo.map((r) => r.address),
          ),
        );
        if (options.delayMs) setTimeout(() => callback(), options.delayMs);
        else callback();
      });
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    mails,
    async waitFor(n, ms = 10_000) {
      const until = Date.now() + ms;
      while (mails.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} mails, got ${mails.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
