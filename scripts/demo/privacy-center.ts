/**
 * The demo's privacy-center step (PRODUCT §2.15, docs/privacy-center.md): the person files their
 * own request. The workspace turns its center on; the person submits with their e-mail address
 * (no token), the service mails a 6-digit code to a real SMTP server on loopback (the `smtp-server`
 * package, as the tests use), the demo reads the code from that mail and verifies it; the request
 * is filed, the "received" mail brings the status link, and once the worker has answered it the
 * "done" mail links the answer. With the shop database, the person is a customer of the shop the
 * service never heard of: the answer holds her rows, found by the dataset's `identity: email`.
 */
import type { ReceivedMail, SmtpReceiver } from '../../test/helpers/smtp-receiver.js';
import { type Answer, DemoFailure } from './http.js';
import { line } from './print.js';

/** The API client of demo.ts (bearer token). */
type Api = (method: string, path: string, body?: unknown) => Promise<Answer>;

/** A public call (no token): the JSON answer, or a DemoFailure unless it is `expected`. */
async function publicPost(url: string, body: unknown, expected: number): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== expected)
    throw new DemoFailure(`POST ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, body: JSON.parse(text) };
}

/** The first mail to `to` whose subject matches, waiting for the worker's mail loop. */
async function mailTo(mailbox: SmtpReceiver, to: string, subject: RegExp, timeoutMs = 15_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = mailbox.mails.find((m) => m.to.includes(to) && subject.test(m.subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new DemoFailure(`no mail "${String(subject)}" to ${to} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs the step against the demo's service at `baseUrl` in `workspace`, with `mailbox` receiving
 * what the service sends over `SMTP_URL`; `shopKey` names the shop database system, whose part of
 * the answer is printed (null: none). Prints each stage; the code itself is not printed.
 * @throws DemoFailure when an answer or a mail is not what the center promises.
 */
export async function privacyCenterStep(
  api: Api,
  baseUrl: string,
  workspace: string,
  mailbox: SmtpReceiver,
  email: string,
  shopKey: string | null = null,
): Promise<void> {
  await api('PUT', `/api/v1/workspaces/${workspace}/privacy-center`, {
    enabled: true,
    request_types: ['access', 'deletion'],
    title: 'Demo Software privacy center',
  });
  line(`privacy center on: the form is at ${baseUrl}/privacy-center/${workspace}/ (no token, works without JavaScript)`);

  const submitted = await publicPost(
    `${baseUrl}/privacy-center/v1/${workspace}/requests`,
    { request_type: 'access', email },
    202,
  );
  line(`${email} asks for a copy of their data: submission ${submitted.body.id}, ${submitted.body.status}`);

  const codeMail = await mailTo(mailbox, email, /code/i);
  const code = /Your code is ([0-9]{6})\./.exec(codeMail.text)?.[1];
  if (!code) throw new DemoFailure(`the code mail holds no 6-digit code: ${codeMail.text.slice(0, 300)}`);
  line(`mail received by the SMTP server on ${mailbox.url}: from ${codeMail.from}, code received (valid 10 minutes, 3 tries)`);

  const verified = await publicPost(
    `${baseUrl}/privacy-center/v1/${workspace}/requests/${submitted.body.id}/verify`,
    { code },
    200,
  );
  line(`code entered: the submission became a privacy request, ${verified.body.status}`);

  const received = await mailTo(mailbox, email, /received your request/);
  const link = /(https?:\/\/\S+\/status\/(pr_[0-9A-Z]{26})\?token=)\S+/.exec(received.text);
  if (!link) throw new DemoFailure(`the "received" mail holds no status link: ${received.text.slice(0, 300)}`);
  const id = link[2]!;
  line(`mail received: "${received.subject}", with a status link ${link[1]}… (its token stored only as a hash)`);

  const body = await settled(api, id);
  line(
    `request ${id}: ${body.request_type}, ${body.status}, subject_provider "${body.subject_provider}", ` +
      `intake_ref "${body.intake_ref}", received ${body.received_at}, due ${body.due_at}`,
  );
  if (body.status !== 'completed') throw new DemoFailure(`the center request ended ${body.status}: ${body.status_reason ?? ''}`);
  const done = await mailTo(mailbox, email, /is done/);
  const page = await fetch(/(https?:\/\/\S+\/status\/pr_[0-9A-Z]{26}\?token=\S+)/.exec(done.text)?.[1] ?? `${baseUrl}/`);
  if (page.status !== 200) throw new DemoFailure(`the status page answered ${page.status}`);
  line(`mail received: "${done.subject}"; its status link opens the answer (HTTP ${page.status}), the mail itself holds no data`);
  if (shopKey) await shopPart(api, id, shopKey);
}

/**
 * What the shop database answered for the center request (PRODUCT §2.17): the person is unknown
 * to the service, so only the dataset's `identity: email` field can find her; her rows per table.
 * @throws DemoFailure when the package holds none of her rows.
 */
async function shopPart(api: Api, id: string, shopKey: string): Promise<void> {
  const pkg = await api('GET', `/api/v1/privacy/requests/${id}/package`);
  const part = (pkg.body.systems?.[shopKey] ?? {}) as Record<string, unknown[]>;
  const rows = Object.entries(part).map(([table, found]) => `${table} ${found.length}`);
  const customer = part.customer?.[0] as Record<string, unknown> | undefined;
  if (!customer) throw new DemoFailure(`the shop database found no customer row for the center request: ${JSON.stringify(part)}`);
  line(
    `the shop database was searched by the dataset's e-mail identity (the service itself never heard of this person): ` +
      `rows ${rows.join(', ')}; customer "${String(customer.full_name)}"`,
  );
}

/** Polls request `id` until it leaves `queued`/`processing` (15 s at most). @returns the request. */
async function settled(api: Api, id: string): Promise<Answer['body']> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { body } = await api('GET', `/api/v1/privacy/requests/${id}`);
    if (!['queued', 'processing'].includes(body.status) || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
