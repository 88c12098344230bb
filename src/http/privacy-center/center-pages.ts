import { escapeHtml } from '../letters/escape.js';
import { readableTime } from '../letters/html.js';
import { type NotSearchedPart, notSearchedSentence } from '../letters/not-searched-part.js';
import type { KeptItem } from '../../modules/subject-data/erasure-report.fns.js';
import { OPT_OUT_KINDS, type OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import { statusWords, waitingText } from './center-status-words.js';

/** Words for each request type, as a person reads them. */
export const TYPE_LABELS: Record<string, string> = {
  access: 'See the personal data you hold about me',
  export: 'Get a copy of my data to take elsewhere',
  correction: 'Correct my personal data',
  deletion: 'Delete my personal data',
};

const e = escapeHtml;

/** A whole page: language, title, the stylesheet, one main landmark. */
export function page(title: string, body: string, heading = title): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${e(title)}</title><link rel="stylesheet" href="/privacy-center/assets/center.css"></head>` +
    `<body><main><h1>${e(heading)}</h1>${body}</main></body></html>`
  );
}

/** A problem the person can fix, announced to screen readers. */
export function problem(text: string): string {
  return `<div class="problem" role="alert"><p>${e(text)}</p></div>`;
}

/**
 * Each opt-out kind as a person reads it (PRODUCT §2.18), what it changes now and by when those
 * who got the data must be told (the law's deadline, `due_at`: an obligation, not a report that
 * it was done; passing opt-outs on to data systems is not built yet, docs/opt-outs.md).
 */
export const OPT_OUT_LABELS: Record<OptOutKind, { label: string; now: string; passedOn: string }> = {
  sale_sharing: {
    label: 'Do not sell or share my personal information',
    now: 'From now on we do not sell or share your personal information.',
    passedOn: 'We must tell those we sold or shared it with by',
  },
  sensitive_use: {
    label: 'Limit the use of my sensitive personal information',
    now: 'From now on we use your sensitive personal information only for what you asked us for.',
    passedOn: 'We must tell those who use it for us by',
  },
  direct_marketing: {
    label: 'Do not use my data for direct marketing',
    now: 'From now on we do not use your data for direct marketing.',
    passedOn: 'We must tell those who market for us by',
  },
};

/** The visible notice of a page fetched with `Sec-GPC: 1` (11 CCR §7025(c)(6)). */
export const GPC_NOTICE =
  `<div class="gpc" role="status"><p><strong>Opt-Out Request Honored</strong></p>` +
  `<p>Your browser sent a Global Privacy Control signal. We honour it as your request to opt out of the sale and sharing of your personal information; ` +
  `when you send us your e-mail address on this site, we record that opt-out for it too.</p></div>`;

/** `html` with {@link GPC_NOTICE} after its first heading (or at the start of its body). */
export function withGpcNotice(html: string): string {
  const heading = html.indexOf('</h1>');
  if (heading !== -1) return html.slice(0, heading + 5) + GPC_NOTICE + html.slice(heading + 5);
  const body = html.indexOf('<body>');
  return body === -1 ? GPC_NOTICE + html : html.slice(0, body + 6) + GPC_NOTICE + html.slice(body + 6);
}

/** The path of workspace `workspaceId`'s opt-out form's POST, landing on the form again when it has a problem. */
export function optOutPath(workspaceId: string): string {
  return `/privacy-center/${encodeURIComponent(workspaceId)}/opt-outs`;
}

/** What the opt-out form shows again after a problem: the problems at their fields, and the values. */
export interface OptOutFormState {
  /** At the kinds, at the address, or about the whole form (a limit, the CAPTCHA). */
  problems?: { kinds?: string; email?: string; form?: string };
  values?: { kinds: readonly string[]; email: string };
}

/** A problem shown at its field, named by the field's `aria-describedby`. */
function fieldProblem(id: string, text: string | undefined): string {
  return text === undefined ? '' : `<p class="field-problem" id="${e(id)}">${e(text)}</p>`;
}

/**
 * The opt-out form (PRODUCT §2.18): no code, one checkbox per kind, the address; posts to
 * {@link optOutPath} (its `#opt-out` brings the answer's page back to this form). A problem is
 * shown at its field (`aria-invalid`, `aria-describedby`), and announced.
 */
function optOutForm(workspaceId: string, captchaSiteKey: string | null | undefined, state: OptOutFormState): string {
  const p = state.problems ?? {};
  const chosen = new Set(state.values?.kinds ?? []);
  const boxes = OPT_OUT_KINDS.map(
    (k) =>
      `<div class="choice"><input type="checkbox" id="oo-kind-${k}" name="kinds" value="${k}"${chosen.has(k) ? ' checked' : ''}>` +
      `<label for="oo-kind-${k}">${e(OPT_OUT_LABELS[k].label)}</label></div>`,
  ).join('');
  const any = p.kinds !== undefined || p.email !== undefined || p.form !== undefined;
  const emailDescribed = ['oo-email-hint', ...(p.email === undefined ? [] : ['oo-email-problem'])].join(' ');
  return (
    `<section id="opt-out" aria-labelledby="opt-out-heading"><h2 id="opt-out-heading">Do not sell or share my personal information</h2>` +
    `<p>Tell us what to stop. This needs no code: it takes effect as soon as you send it.</p>` +
    (any ? problem(p.form ?? 'Please check the marked fields below.') : '') +
    `<form method="post" action="${e(optOutPath(workspaceId))}#opt-out">` +
    `<fieldset${p.kinds === undefined ? '' : ' aria-describedby="oo-kinds-problem" aria-invalid="true"'}><legend>What should we stop?</legend>` +
    fieldProblem('oo-kinds-problem', p.kinds) +
    `${boxes}</fieldset>` +
    `<label for="oo-email">E-mail address</label>` +
    fieldProblem('oo-email-problem', p.email) +
    `<input id="oo-email" name="email" type="email" autocomplete="email" required maxlength="254" value="${e(state.values?.email ?? '')}" aria-describedby="${emailDescribed}"${p.email === undefined ? '' : ' aria-invalid="true"'}>` +
    `<p class="hint" id="oo-email-hint">We record your choice for this address.</p>` +
    (captchaSiteKey
      ? `<label for="oo-captcha_token">Anti-abuse check</label><input id="oo-captcha_token" name="captcha_token" required>`
      : '') +
    `<button type="submit">Record my choice</button></form></section>`
  );
}

/** An opt-out the center recorded, as its page shows it. */
export interface RecordedOptOut {
  kind: OptOutKind;
  source: 'form' | 'gpc';
  due_at: string;
}

/**
 * The page after the opt-out form: exactly what was recorded, each kind with that it takes effect
 * now and the date by which it is passed on; a `gpc` one (the browser's signal) named as such.
 */
export function optOutRecordedPage(input: {
  workspaceId: string;
  title: string;
  email: string;
  recorded: readonly RecordedOptOut[];
}): string {
  const items = input.recorded
    .map((r) => {
      const words = OPT_OUT_LABELS[r.kind];
      const why = r.source === 'gpc' ? ' (your browser’s Global Privacy Control signal)' : '';
      return (
        `<li><strong>${e(words.label)}${e(why)}.</strong> Takes effect now. ${e(words.now)} ` +
        `${e(words.passedOn)} ${e(readableTime(r.due_at))}.</li>`
      );
    })
    .join('');
  const body =
    `<div class="done" role="status"><p>We recorded your choice for ${e(input.email)}.</p></div>` +
    `<h2>What we recorded</h2><ul class="recorded">${items}</ul>` +
    `<p>You need to do nothing else, and no code is needed.</p>` +
    backToForm(input.workspaceId, 'Back to the privacy center');
  return page(input.title, body, 'Your choice is recorded');
}

/** The path of workspace `workspaceId`'s form: where every dead end of the center leads back to. */
export function formPath(workspaceId: string): string {
  return `/privacy-center/${encodeURIComponent(workspaceId)}/`;
}

/**
 * The request form (PRODUCT §2.15): works without JavaScript; posts to the same path. The request
 * types are radio buttons, not a `<select>`: a select's closed box cuts a long label at 390 px
 * (it cannot wrap), a radio's label wraps.
 */
export function formPage(input: {
  workspaceId: string;
  title: string;
  controllerName: string | null;
  types: readonly string[];
  problem?: string;
  values?: { request_type?: string; email?: string };
  captchaSiteKey?: string | null;
  /** The opt-out form's problems and values, after a POST to it that had one. */
  optOut?: OptOutFormState;
}): string {
  const chosen = input.types.length === 1 ? input.types[0] : input.values?.request_type;
  const options = input.types
    .map(
      (t) =>
        `<div class="choice"><input type="radio" id="request_type-${e(t)}" name="request_type" value="${e(t)}" required${chosen === t ? ' checked' : ''}>` +
        `<label for="request_type-${e(t)}">${e(TYPE_LABELS[t] ?? t)}</label></div>`,
    )
    .join('');
  const who = input.controllerName ? `${input.controllerName}` : 'this organisation';
  const body =
    `<p>Ask ${e(who)} about the personal data it holds about you. We send a 6-digit code to your e-mail address to make sure it is yours.</p>` +
    (input.problem ? problem(input.problem) : '') +
    `<form method="post" action="${e(formPath(input.workspaceId))}">` +
    `<fieldset><legend>What would you like to do?</legend>${options}</fieldset>` +
    `<label for="email">Your e-mail address</label>` +
    `<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${e(input.values?.email ?? '')}" aria-describedby="email-hint">` +
    `<p class="hint" id="email-hint">The address ${e(who)} knows you by. We only use it for this request.</p>` +
    (input.captchaSiteKey
      ? `<label for="captcha_token">Anti-abuse check</label><input id="captcha_token" name="captcha_token" required>`
      : '') +
    `<button type="submit">Send me a code</button></form>` +
    `<p class="hint">Without a code nothing happens: someone who types your address cannot file a request in your name.</p>` +
    optOutForm(input.workspaceId, input.captchaSiteKey, input.optOut ?? {});
  return page(input.title, body);
}

/** The link back to the form, as its own paragraph: `text` is what the link says. */
function backToForm(workspaceId: string, text: string, before = ''): string {
  return `<p class="back">${e(before)}<a href="${e(formPath(workspaceId))}">${e(text)}</a></p>`;
}

/** After a submission: the page with the `code` field, posting to the verification, and a way back to the form. */
export function codePage(input: { workspaceId: string; title: string; submissionId: string; problem?: string }): string {
  const body =
    `<p>If the address is right, a 6-digit code is on its way to it. It is valid for 10 minutes; you have three tries.</p>` +
    (input.problem ? problem(input.problem) : '') +
    `<form method="post" action="/privacy-center/${encodeURIComponent(input.workspaceId)}/verify">` +
    `<input type="hidden" name="id" value="${e(input.submissionId)}">` +
    `<label for="code">Code from the e-mail</label>` +
    `<input id="code" name="code" class="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required aria-describedby="code-hint">` +
    `<p class="hint" id="code-hint">Six digits.</p>` +
    `<button type="submit">Confirm my request</button></form>` +
    backToForm(input.workspaceId, 'Start again', 'No code after a few minutes, or a mistake in the address? ');
  return page(input.title, body, 'Check your e-mail');
}

/**
 * Why a code can no longer file anything (PRODUCT §2.15), as the person reads it: `expired` (older
 * than 10 minutes), `void` (three wrong tries, this one or earlier), `unknown` (no such
 * submission: never made, or deleted after 24 hours).
 */
export type DeadCode = 'expired' | 'void' | 'unknown';

const DEAD_CODE_WORDS: Record<DeadCode, { heading: string; text: string }> = {
  expired: {
    heading: 'Your code has expired',
    text: 'A code works for 10 minutes, and this one is older. Nothing was filed.',
  },
  void: {
    heading: 'Your code no longer works',
    text: 'The code was tried three times without the right digits, so it is used up. Nothing was filed.',
  },
  unknown: {
    heading: 'We cannot find this request',
    text: 'It may be more than 24 hours old, or the page was opened from an old link. Nothing was filed.',
  },
};

/**
 * The page after a code that can no longer file anything: what happened in plain words, and a
 * link back to the form for a new code. Never "a code is on its way", never the code field.
 */
export function deadCodePage(input: { workspaceId: string; title: string; why: DeadCode }): string {
  const words = DEAD_CODE_WORDS[input.why];
  return page(
    input.title,
    `<div class="problem" role="alert"><p>${e(words.text)}</p></div>` +
      backToForm(input.workspaceId, 'Start again and get a new code'),
    words.heading,
  );
}

/**
 * A page the person cannot go on from (a status link that is not valid, an answer that expired):
 * `text` as a paragraph and, when the workspace's center is on (`workspaceId` not null), a link
 * back to its form; a center that is off has no form to go back to.
 */
export function deadEndPage(input: {
  title: string;
  heading: string;
  text: string;
  workspaceId: string | null;
  linkText?: string;
}): string {
  const back = input.workspaceId === null ? '' : backToForm(input.workspaceId, input.linkText ?? 'Go to the request form');
  return page(input.title, `<p>${e(input.text)}</p>${back}`, input.heading);
}

/** After verification: the request is filed; the status link comes by mail. */
export function verifiedPage(title: string, status: string, statusReason: string | null = null): string {
  return page(
    title,
    `<div class="done" role="status"><p>Thank you: your request is filed (${e(statusWords(status, statusReason))}).</p></div>` +
      `<p>We sent you an e-mail with a link where you can follow it. We will also write when it is done.</p>`,
    'Your request is filed',
  );
}

/** What the status page shows of a request (PRODUCT §2.15). */
export interface StatusView {
  title: string;
  requestType: string;
  status: string;
  receivedAt: string;
  dueAt: string;
  extendedDueAt: string | null;
  extensionReason: string | null;
  statusReason: string | null;
  completedAt: string | null;
  /** The letter's link (access/export completed, package kept), or null. */
  letterUrl: string | null;
  /** The machine-readable package's link (GDPR Art. 20; same token and expiry as the letter), or null. */
  packageUrl?: string | null;
  /** A deletion's confirmation, or null. */
  deletionConfirmed: boolean;
  /** A completed deletion's systems that could not be searched with what the person gave (PRODUCT §2.17). */
  notSearched: readonly NotSearchedPart[];
  /** What a completed deletion kept, and why (PRODUCT §2.17); null or absent: not a completed deletion. */
  kept?: readonly KeptItem[] | null;
  controllerName: string | null;
  /** What the person can do about a rejection, under the request's regulations (modules/subject-data/rights.fns.ts). */
  whenDeclined: string;
}

/** The systems a deletion could not search (PRODUCT §2.17), one sentence each; '' when none. */
function notSearchedParagraphs(parts: readonly NotSearchedPart[]): string {
  return parts.map((part) => `<p>${e(notSearchedSentence(part))} Nothing in it was deleted.</p>`).join('');
}

/**
 * A completed deletion's confirmation (PRODUCT §2.15, §2.17): that the controller deleted the
 * person's data, and what it kept and why, item by item, in plain words.
 */
function deletionConfirmation(v: StatusView): string {
  const who = e(v.controllerName ?? 'The organisation');
  const when = e(readableTime(v.completedAt ?? ''));
  const kept = v.kept ?? [];
  const notSearched = notSearchedParagraphs(v.notSearched);
  if (kept.length === 0)
    return `<h2>Deletion confirmed</h2><p>${who} deleted your personal data on ${when}, except what the law requires it to keep.</p>${notSearched}`;
  const items = kept.map((k) => `<li><strong>${e(k.what)}.</strong> ${e(k.why)}</li>`).join('');
  return (
    `<h2>Deletion confirmed</h2><p>${who} deleted your personal data on ${when}, except what is listed below.</p>` +
    notSearched +
    `<h3>What we kept, and why</h3><ul>${items}</ul>`
  );
}

/** The person's status page: type, status, dates, an extension and its reason, and once done the answer. */
export function statusPage(v: StatusView): string {
  const rows: [string, string][] = [
    ['Request', TYPE_LABELS[v.requestType] ?? v.requestType],
    ['Status', statusWords(v.status, v.statusReason)],
    ['Received', readableTime(v.receivedAt)],
    ['Answer due by', readableTime(v.extendedDueAt ?? v.dueAt)],
  ];
  if (v.extendedDueAt)
    rows.push(['Extended', `from ${readableTime(v.dueAt)}${v.extensionReason ? `: ${v.extensionReason}` : ''}`]);
  if (v.completedAt) rows.push(['Finished', readableTime(v.completedAt)]);
  if (v.status === 'rejected' && v.statusReason) rows.push(['Reason', v.statusReason]);
  const dl = `<dl>${rows.map(([k, val]) => `<div><dt>${e(k)}</dt><dd>${e(val)}</dd></div>`).join('')}</dl>`;
  let answer = '';
  if (v.letterUrl) answer = `<h2>Your answer</h2><p><a href="${e(v.letterUrl)}">Read the letter with your data</a></p>`;
  if (v.letterUrl && v.packageUrl)
    answer +=
      `<p><a href="${e(v.packageUrl)}" download>Download the same answer as a machine-readable file (JSON)</a>, ` +
      `to keep or to take to another service (GDPR Art. 20).</p>`;
  if (v.deletionConfirmed) answer = deletionConfirmation(v);
  answer = waitingText(v.status, v.statusReason) ?? answer;
  if (v.status === 'rejected') {
    answer = `<h2>Your rights</h2><p>${e(v.whenDeclined)}</p>`;
  }
  return page(v.title, dl + answer, 'Your request');
}
