/**
 * The privacy center's opt-out pages (PRODUCT §2.18): the opt-out form shown under the request
 * form, and the page of what was recorded.
 */
import { escapeHtml } from '../letters/escape.js';
import { readableTime } from '../letters/html.js';
import { OPT_OUT_KINDS, type OptOutKind } from '../../modules/opt-outs/opt-out.types.js';
import { backToForm, page, problem } from './center-layout.js';

const e = escapeHtml;

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
 * shown at its field (`aria-invalid`, `aria-describedby`), and announced. A section of the
 * request form's page (center-request-pages.ts `formPage`); the anti-abuse field only when
 * `captchaSiteKey` is set.
 */
export function optOutForm(workspaceId: string, captchaSiteKey: string | null | undefined, state: OptOutFormState): string {
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
