// The operator actions a request's state allows (PRODUCT.md §2.3, §2.21), each asking for a reason
// where the API records one and saying who will read it; reject and cancel in every state that is
// not final; a refusal (409 wrong state, 403 self-approval) is shown in the API's words.
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { PrivacyRequest } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { bindingDue, extendedDueDate, formatTime, isFinal } from '../lib/deadline';

type Action = 'approve' | 'proceed' | 'reject' | 'cancel' | 'extend' | 'corrections';

const LABELS: Record<Action, string> = {
  approve: 'Approve',
  proceed: 'Proceed',
  reject: 'Reject',
  cancel: 'Cancel request',
  extend: 'Extend deadline',
  corrections: 'Submit corrections',
};

/** Whether the binding due date has passed: no extension then (PRODUCT §2.13; the API answers 409). */
function deadlinePassed(request: PrivacyRequest, now: number): boolean {
  return Date.parse(bindingDue(request)) < now;
}

/**
 * The actions the lifecycle allows in this state (the API decides; this only hides the hopeless
 * ones): none without `privacy:write`, no Approve for the request's filer (separation of duties),
 * no extension once the binding due date has passed.
 */
export function allowedActions(
  request: PrivacyRequest,
  who: { canWrite: boolean; isFiler: boolean } = { canWrite: true, isFiler: false },
  now: number = Date.now(),
): Action[] {
  if (isFinal(request.status) || !who.canWrite) return [];
  const actions: Action[] = [];
  if (request.status === 'pending_approval' && !who.isFiler) actions.push('approve');
  // A repeat (PRODUCT §2.20) goes on only when an operator says so; reject (Art. 12(5)) and cancel follow.
  if (request.status === 'action_required' && request.status_reason === 'repeat_request') actions.push('proceed');
  if (!request.extended_due_at && !deadlinePassed(request, now)) actions.push('extend');
  if (request.request_type === 'correction' && request.status === 'action_required') actions.push('corrections');
  // Reject and cancel: any state that is not final (PRODUCT §2.3, §2.21).
  actions.push('reject', 'cancel');
  return actions;
}

const CORRECTABLE = ['email', 'name', 'username'] as const;

/** Who reads the reason: a rejection's goes to the person (GDPR Art. 12(4)), an extension's too (Art. 12(3)). */
const REASON_LABELS: Record<'proceed' | 'reject' | 'cancel' | 'extend', string> = {
  proceed: 'Why it goes on although it repeats a recent request (recorded in the audit trail; no personal data)',
  reject: 'Reason the person will be told (also recorded in the audit trail)',
  cancel: 'Reason (recorded in the audit trail; no personal data)',
  extend: 'Reason the person will be told (also recorded in the audit trail)',
};

/**
 * What a rejection does, before it is done: the request ends as rejected, and a person with an
 * address to tell (every privacy-center request; an API filing with `notify_email`) gets a mail
 * with the reason and the right to complain to a supervisory authority (GDPR Art. 12(4)).
 */
function RejectNotice({ request }: { request: PrivacyRequest }) {
  const center = request.intake_ref === 'privacy-center';
  const regulations = request.regulation.split('+');
  const remedies = [
    ...(regulations.includes('gdpr')
      ? ['to complain to a supervisory authority and to go to court (GDPR Art. 12(4), 77, 79)']
      : []),
    ...(regulations.includes('ccpa') ? ['to complain to the California Privacy Protection Agency'] : []),
  ];
  return (
    <p class="notice">
      The request ends as <strong>rejected</strong>: no further work is done on it
      {request.status === 'action_required' ? ', and what it waits for is closed' : ''}.{' '}
      {request.status_reason === 'repeat_request' && (
        <>A repeat may be refused as manifestly unfounded or excessive (GDPR Art. 12(5)); the reason must say why. </>
      )}
      {center
        ? 'The person filed it in the privacy center, so they are mailed'
        : 'If the filer gave an address to notify, the person is mailed'}{' '}
      that their request was declined, with the reason below word for word
      {remedies.length ? ` and their right ${remedies.join(' and ')}` : ''}.
    </p>
  );
}

function ActionForm(props: {
  request: PrivacyRequest;
  action: Action;
  onDone: (updated: PrivacyRequest) => void;
  onClose: () => void;
}) {
  const { action } = props;
  const [reason, setReason] = useState('');
  const [changes, setChanges] = useState<Record<string, string>>({});
  const [local, setLocal] = useState<string[]>([]);
  const submit = useSubmit();
  const needsReason = action === 'proceed' || action === 'reject' || action === 'cancel' || action === 'extend';

  const onSubmit = (event: Event) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (needsReason && (trimmed.length === 0 || [...trimmed].length > 1000)) {
      return setLocal([trimmed.length === 0 ? 'Give a reason: it is recorded in the audit trail.' : 'At most 1000 characters.']);
    }
    const filled = Object.fromEntries(Object.entries(changes).filter(([, value]) => value.trim() !== ''));
    if (action === 'corrections' && Object.keys(filled).length === 0) return setLocal(['Enter at least one corrected value.']);
    setLocal([]);
    void submit.run(async () => {
      const body = action === 'approve' ? undefined : action === 'corrections' ? { changes: filled } : { reason: trimmed };
      const updated = await api<PrivacyRequest>(
        'POST',
        `/api/v1/privacy/requests/${encodeURIComponent(props.request.id)}/${action}`,
        {
          ...(body ? { body } : {}),
        },
      );
      props.onDone(updated);
    });
  };

  return (
    <form class="action-form" onSubmit={onSubmit} noValidate aria-label={LABELS[action]}>
      {action === 'reject' && <RejectNotice request={props.request} />}
      {needsReason && (
        <Field
          id={`reason-${action}`}
          label={REASON_LABELS[action as 'proceed' | 'reject' | 'cancel' | 'extend']}
          errors={fieldErrors(submit.error, 'reason', local)}
        >
          {(a11y) => (
            <textarea {...a11y} rows={3} maxLength={1000} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          )}
        </Field>
      )}
      {action === 'extend' && (
        <p class="notice">
          The binding due date becomes <strong>{formatTime(extendedDueDate(props.request))}</strong> (now{' '}
          {formatTime(props.request.due_at)}). A request is extended once only.
        </p>
      )}
      {action === 'approve' && <p>Approving sends the request to processing. The audit trail records you as the approver.</p>}
      {action === 'proceed' && (
        <p class="notice">
          The request goes on as if it repeated nothing: to approval when the workspace requires it, else to processing. It keeps
          the link to the request it repeats. The person is not told of the repeat.
        </p>
      )}
      {action === 'corrections' &&
        CORRECTABLE.map((field) => (
          <Field
            key={field}
            id={`correction-${field}`}
            label={`Corrected ${field}`}
            errors={fieldErrors(submit.error, 'changes')}
          >
            {(a11y) => (
              <input
                {...a11y}
                value={changes[field] ?? ''}
                onInput={(e) => setChanges({ ...changes, [field]: e.currentTarget.value })}
              />
            )}
          </Field>
        ))}
      {action === 'corrections' && local.length > 0 && <p class="field-error">{local.join(' ')}</p>}
      <div class="buttons">
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Sending…' : `Confirm: ${LABELS[action].toLowerCase()}`}
        </button>
        <button type="button" class="secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
      <ErrorText error={submit.error} />
    </form>
  );
}

export function RequestActions(props: {
  request: PrivacyRequest;
  onChanged: (updated: PrivacyRequest) => void;
  canWrite: boolean;
  isFiler: boolean;
}) {
  const [open, setOpen] = useState<Action | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const actions = allowedActions(props.request, { canWrite: props.canWrite, isFiler: props.isFiler });
  if (!props.canWrite) return <p>Your token may read requests, not act on them.</p>;
  if (actions.length === 0)
    return (
      <>
        {/* The action that ended the request says it was done, even though none is open now. */}
        {done && (
          <p class="notice" role="status">
            {done}
          </p>
        )}
        <p>No action is open in this state.</p>
      </>
    );
  return (
    <>
      <div class="buttons" role="group" aria-label="Actions">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            class={action === 'reject' || action === 'cancel' ? 'danger' : undefined}
            aria-expanded={open === action}
            onClick={() => {
              setDone(null);
              setOpen(open === action ? null : action);
            }}
          >
            {LABELS[action]}
          </button>
        ))}
      </div>
      {!isFinal(props.request.status) && !props.request.extended_due_at && deadlinePassed(props.request, Date.now()) && (
        <p>
          The deadline has passed, so it can no longer be extended: an extension must be given, and the person told, before the
          deadline. The request stays overdue until it ends.
        </p>
      )}
      {open && (
        <ActionForm
          key={open}
          request={props.request}
          action={open}
          onClose={() => setOpen(null)}
          onDone={(updated) => {
            setDone(`${LABELS[open]}: done. Status is now ${updated.status.replace(/_/g, ' ')}.`);
            setOpen(null);
            props.onChanged(updated);
          }}
        />
      )}
      {props.isFiler && props.request.status === 'pending_approval' && (
        <p class="hint">You filed this request, so another operator must approve it.</p>
      )}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </>
  );
}
