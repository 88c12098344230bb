import { escapeHtml } from '../letters/escape.js';
import { page, problem } from './center-layout.js';
import type { DrpWaitView } from '../../workflows/drp/verify-drp-person.js';

const e = escapeHtml;

/** What an agent asked, as the person reads it. */
const EXERCISE_WORDS: Record<string, string> = {
  access: 'tell you what personal data it holds about you and send you a copy',
  deletion: 'delete the personal data it holds about you',
  'sale:opt-in': 'withdraw your opt-out of the sale or sharing of your personal information, so it may sell or share it again',
};

/** The page's context: its title, the path the forms post to, and the fields they carry back. */
export interface DrpVerifyContext {
  readonly title: string;
  /** The controller's name, or null when no profile is set. */
  readonly controller: string | null;
  readonly action: string;
  readonly token: string;
  readonly redirectTo: string;
}

function hiddenFields(c: DrpVerifyContext): string {
  return (
    `<input type="hidden" name="token" value="${e(c.token)}">` +
    (c.redirectTo === '' ? '' : `<input type="hidden" name="redirect_to" value="${e(c.redirectTo)}">`)
  );
}

function sendForm(c: DrpVerifyContext, label: string): string {
  return (
    `<form method="post" action="${e(c.action)}">${hiddenFields(c)}` +
    `<input type="hidden" name="step" value="send"><button type="submit">${e(label)}</button></form>`
  );
}

function codeForm(c: DrpVerifyContext): string {
  return (
    `<form method="post" action="${e(c.action)}">${hiddenFields(c)}` +
    `<input type="hidden" name="step" value="confirm">` +
    `<label for="code">Code from the e-mail</label>` +
    `<input id="code" name="code" class="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required aria-describedby="code-hint">` +
    `<p class="hint" id="code-hint">Six digits. It is valid for 10 minutes; you have three tries.</p>` +
    `<button type="submit">Confirm the request</button></form>`
  );
}

/**
 * The page an authorized agent sends the person to (PRODUCT §2.19 `need_user_verification`): who
 * asked what on their behalf, where the code goes (masked), a POST button to send it (a GET never
 * mails: scanners follow links) and, once a code was sent, its field.
 * @param notice - a line above the forms: a code sent, or a problem with the last one.
 */
export function drpVerifyPage(
  c: DrpVerifyContext,
  view: DrpWaitView,
  notice?: { kind: 'sent' } | { kind: 'problem'; text: string },
): string {
  const who = c.controller ?? 'This organisation';
  const what = EXERCISE_WORDS[view.exercise] ?? 'act on a privacy request';
  const intro =
    `<p>${e(view.agentName)}, acting as your authorized agent, asked ${e(who)} to ${e(what)}.</p>` +
    `<p>Before anything is done, ${e(who)} needs to know this is you. We send a 6-digit code to ` +
    `<strong>${e(view.maskedEmail)}</strong>, the address your agent gave.</p>`;
  const said =
    notice === undefined
      ? ''
      : notice.kind === 'sent'
        ? `<div class="done" role="status"><p>A code is on its way to ${e(view.maskedEmail)}.</p></div>`
        : problem(notice.text);
  const forms =
    view.codeSent || notice?.kind === 'sent'
      ? codeForm(c) + `<p class="back">No code after a few minutes?</p>` + sendForm(c, 'Send a new code')
      : sendForm(c, 'Send me a code');
  const refuse = `<p class="hint">If you did not ask ${e(view.agentName)} to do this, do nothing: without the code nothing is filed, and the request lapses after 14 days.</p>`;
  return page(c.title, intro + said + forms + refuse, 'Confirm a request your agent made');
}

/** After the right code, when there is nowhere to send the person back to: the request is filed. */
export function drpFiledPage(c: DrpVerifyContext, agentName: string): string {
  return page(
    c.title,
    `<div class="done" role="status"><p>Thank you: the request is confirmed and filed.</p></div>` +
      `<p>${e(agentName)} will tell you how it goes; you can close this page.</p>`,
    'Request confirmed',
  );
}

/** The link opens nothing: unknown, confirmed already, withdrawn by the agent, or older than 14 days. */
export function drpGonePage(title: string): string {
  return page(
    title,
    `<p>This link no longer opens a request. It may have been confirmed already, withdrawn by your agent, or be more than 14 days old. Nothing more is needed from you here.</p>`,
    'Nothing to confirm here',
  );
}
