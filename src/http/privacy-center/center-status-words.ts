/**
 * A request's state as the person reads it on the privacy center's pages (PRODUCT §2.15): the
 * status in words, and what a request that waits for the privacy team says about why.
 */

const STATUS_WORDS: Record<string, string> = {
  pending_approval: 'Received, waiting for review',
  queued: 'Received, in the queue',
  processing: 'Being worked on',
  action_required: 'Being worked on (a person is looking at it)',
  completed: 'Done',
  failed: 'Being worked on (delayed)',
  rejected: 'Declined',
  canceled: 'Canceled',
};

/** The `status_reason` of a request filed while another of its kind was open or recently answered (PRODUCT §2.20). */
const REPEAT_REQUEST = 'repeat_request';

/**
 * A status as the person reads it. A request waiting as a repeat is waiting for the privacy team
 * (PRODUCT §2.20), not being worked on, and nothing about it is decided yet.
 */
export function statusWords(status: string, statusReason: string | null): string {
  if (status === 'action_required' && statusReason === REPEAT_REQUEST) return 'Received, waiting for our team';
  if (status === 'action_required' && statusReason === AWAITING_REVIEW) return 'Being checked before release';
  return STATUS_WORDS[status] ?? status;
}

/**
 * What the person reads while their request waits as a repeat (PRODUCT §2.20): true and nothing
 * more: it is not refused, and it is not said whose or which the other request is.
 */
const REPEAT_REVIEW_TEXT =
  '<h2>Waiting for our team</h2><p>We already have a request of this kind about you that is still open or was answered recently. ' +
  'Someone from our privacy team looks at this one before we go on with it. Nothing has been decided yet: ' +
  'if we decline it, we will tell you why and what you can do about it.</p>';

/** The `status_reason` of a package that waits for the team's check before release (PRODUCT §2.20). */
const AWAITING_REVIEW = 'awaiting_review';

/**
 * What the person reads while their answer is checked before it goes out (PRODUCT §2.20): it is
 * ready and not yet theirs; nothing about what is checked.
 */
const PACKAGE_REVIEW_TEXT =
  '<h2>Being checked before release</h2><p>We have gathered the answer to your request. Someone from our privacy team ' +
  'checks it before we send it, so that it does not give away anything about other people. ' +
  'We will write to you when it is ready; the date above still binds us.</p>';

/** The `status_reason` of a request whose identity matched nothing (PRODUCT §2.13). */
const IDENTITY_UNMATCHED = 'identity_unmatched';

/** What the person reads while their request waits for the identity review (PRODUCT §2.13, §2.17): no "we hold nothing". */
const IDENTITY_REVIEW_TEXT =
  '<h2>We are checking</h2><p>We found no personal data about you with what you gave us. ' +
  'Before we answer, someone from our privacy team checks whether we searched with the right details; ' +
  'we may ask you for another detail to search with.</p>';

/**
 * What the status page says of a request that waits for the privacy team (PRODUCT §2.13,
 * §2.20), as HTML (fixed text, nothing of the request in it), or null when it does not wait so.
 */
export function waitingText(status: string, statusReason: string | null): string | null {
  if (status !== 'action_required') return null;
  if (statusReason === IDENTITY_UNMATCHED) return IDENTITY_REVIEW_TEXT;
  if (statusReason === REPEAT_REQUEST) return REPEAT_REVIEW_TEXT;
  if (statusReason === AWAITING_REVIEW) return PACKAGE_REVIEW_TEXT;
  return null;
}
