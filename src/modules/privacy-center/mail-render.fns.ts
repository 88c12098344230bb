import type { KeptItem } from '../subject-data/erasure-report.fns.js';
import { regulationsOf, whenDeclined } from '../subject-data/rights.fns.js';
import type { MailPayload, RequestMailKind } from './mail.types.js';

/** Who the mail speaks for: the workspace's controller profile (PRODUCT §2.10), or null when none is set. */
export interface MailController {
  name: string;
  contact_email: string;
  supervisory_authority?: { name: string; url: string } | undefined;
}

/** A mail ready to send: subject and plain text (no HTML: nothing to render, nothing to track). */
export interface RenderedMail {
  subject: string;
  text: string;
}

export const TYPE_WORDS: Record<string, string> = {
  access: 'access to your personal data',
  export: 'a copy of your personal data to take elsewhere',
  correction: 'correction of your personal data',
  deletion: 'deletion of your personal data',
  // An opt-in's code (PRODUCT §2.18): the person asks to allow again what they had opted out of.
  opt_in: 'an opt-in: to allow again what you had opted out of',
};

/** A date as people read it: `28 November 2026` (UTC). */
export function readableDate(iso: string | undefined): string {
  if (!iso) return 'unknown';
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/**
 * The completed mail's word on systems that could not be searched with what the person gave
 * (PRODUCT §2.17): how many, and where it says which; '' when none.
 */
function notSearchedNote(count: number, hasPage: boolean): string {
  if (count === 0) return '';
  const which = count === 1 ? 'One of our systems' : `${count} of our systems`;
  const where = hasPage ? "Your request's page says which, and what would let us search them." : 'The answer says which.';
  return `${which} could not be searched with what you gave us. ${where}\n\n`;
}

/**
 * What a completed deletion kept and why (PRODUCT §2.17), as the lines of a plain-text mail; empty
 * without items.
 */
export function keptLines(kept: readonly KeptItem[]): string {
  if (kept.length === 0) return '';
  return `\n\nWhat we kept, and why:\n${kept.map((k) => `- ${k.what}: ${k.why}`).join('\n')}`;
}

/**
 * The words of one mail to a person (PRODUCT §2.15), in plain language: who writes (the
 * controller, or "the organisation" when no profile is set), what happened, and what comes next;
 * a rejection names what the person can do under the request's regulations ({@link whenDeclined});
 * a completed deletion says what was kept and why (`kept`, PRODUCT §2.17).
 * Never the data itself: a finished answer is behind the status link.
 *
 * @param statusUrl - the request's status page with its capability token, or null (API-filed requests).
 * @param facts.notSearched - a completed request's systems that could not be searched (PRODUCT §2.17).
 * @param facts.kept - a completed deletion's kept items ({@link KeptItem}); ignored for other mails.
 */
export function renderMail(
  kind: 'code' | RequestMailKind,
  payload: MailPayload,
  controller: MailController | null,
  statusUrl: string | null,
  facts: { notSearched?: number; kept?: readonly KeptItem[] } = {},
): RenderedMail {
  const who = controller?.name ?? 'the organisation you wrote to';
  const what = TYPE_WORDS[payload.request_type] ?? 'a privacy request';
  const contact = controller ? `\n\nQuestions? Write to ${controller.name} at ${controller.contact_email}.` : '';
  const link = statusUrl ? `\n\nFollow your request here (keep this link to yourself):\n${statusUrl}` : '';
  const sign = `\n\n${controller?.name ?? ''}`.trimEnd();
  switch (kind) {
    case 'code':
      return {
        subject: `Your code: ${payload.code ?? ''}`,
        text:
          `Someone, hopefully you, asked ${who} for ${what} using this e-mail address.\n\n` +
          `Your code is ${payload.code ?? ''}. It is valid for 10 minutes.\n\n` +
          `If this was not you, ignore this mail: nothing happens without the code.` +
          contact +
          sign,
      };
    case 'received':
      return {
        subject: `${who} received your request`,
        text:
          `${who} received your request for ${what} on ${readableDate(payload.received_at)}.\n\n` +
          `We answer by ${readableDate(payload.due_at)} at the latest. We will write to you when it is done.` +
          link +
          contact +
          sign,
      };
    case 'extended':
      return {
        subject: `${who} needs more time for your request`,
        text:
          `${who} needs more time to answer your request for ${what}.\n\n` +
          (payload.reason ? `The reason: ${payload.reason}\n\n` : '') +
          `We now answer by ${readableDate(payload.due_at)} at the latest. A deadline is extended once only.` +
          link +
          contact +
          sign,
      };
    case 'completed':
      return {
        subject: `Your request to ${who} is done`,
        text:
          `${who} has finished your request for ${what}.` +
          (payload.request_type === 'deletion' ? keptLines(facts.kept ?? []) : '') +
          '\n\n' +
          notSearchedNote(facts.notSearched ?? 0, statusUrl !== null) +
          (statusUrl
            ? `The answer is on your request's page; this mail does not carry it.${link}`
            : 'The answer reaches you the way you filed the request; this mail does not carry it.') +
          contact +
          sign,
      };
    case 'rejected': {
      // An outbox row written before mails carried the regulation: GDPR, the policy default, as it was then.
      const regulations = regulationsOf(payload.regulation ?? 'gdpr');
      return {
        subject: `${who} declined your request`,
        text:
          `${who} declined your request for ${what}.\n\n` +
          `The reason: ${payload.reason ?? 'no reason was recorded'}\n\n` +
          whenDeclined(regulations, controller) +
          link +
          contact +
          sign,
      };
    }
  }
}
