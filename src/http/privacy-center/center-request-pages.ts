/**
 * The privacy center's request pages (PRODUCT §2.15): the request form (with the opt-out form
 * under it), the page asking for the e-mailed code, the page of a code that no longer works, and
 * the page of a filed request.
 */
import { escapeHtml } from '../letters/escape.js';
import { backToForm, formPath, page, problem, TYPE_LABELS } from './center-layout.js';
import { optOutForm, type OptOutFormState } from './center-opt-out-pages.js';
import { statusWords } from './center-status-words.js';

const e = escapeHtml;

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

/** After verification: the request is filed; the status link comes by mail. */
export function verifiedPage(title: string, status: string, statusReason: string | null = null): string {
  return page(
    title,
    `<div class="done" role="status"><p>Thank you: your request is filed (${e(statusWords(status, statusReason))}).</p></div>` +
      `<p>We sent you an e-mail with a link where you can follow it. We will also write when it is done.</p>`,
    'Your request is filed',
  );
}
