// Assignment and working notes of a request (PRODUCT.md §2.16): "Assign to me" / unassign, and
// the form for internal notes (shown in the timeline; the audit trail holds each note's hash).
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { PrivacyRequest, WhoAmI } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { isFinal } from '../lib/deadline';

const MAX_NOTE = 4000;

/** Who the request is assigned to, with "Assign to me" and "Unassign" for a token that may write. */
export function Assignment(props: {
  request: PrivacyRequest;
  me: WhoAmI | null;
  canWrite: boolean;
  onChanged: (updated: PrivacyRequest) => void;
}) {
  const submit = useSubmit();
  const { request, me } = props;
  const assign = (assignee: string | null) =>
    void submit.run(async () =>
      props.onChanged(
        await api<PrivacyRequest>('POST', `/api/v1/privacy/requests/${encodeURIComponent(request.id)}/assign`, {
          body: { assignee },
        }),
      ),
    );
  const mine = me !== null && request.assignee === me.name;
  return (
    <div class="assignment">
      <p>
        Assigned to: <strong>{request.assignee ?? 'nobody'}</strong>
        {mine ? ' (you)' : ''}
      </p>
      {props.canWrite && !isFinal(request.status) && me && (
        <div class="buttons">
          {!mine && (
            <button type="button" disabled={submit.busy} onClick={() => assign(me.name)}>
              Assign to me
            </button>
          )}
          {request.assignee !== null && (
            <button type="button" class="secondary" disabled={submit.busy} onClick={() => assign(null)}>
              Unassign
            </button>
          )}
        </div>
      )}
      <ErrorText error={submit.error} />
    </div>
  );
}

/**
 * The form to add a note, for a token that may write; the notes themselves are read in the
 * timeline, each at its entry (PRODUCT.md §2.16). `onAdded` reloads the timeline.
 */
export function NoteForm(props: { requestId: string; onAdded: () => void }) {
  const [text, setText] = useState('');
  const [local, setLocal] = useState<string[]>([]);
  const add = useSubmit();
  const path = `/api/v1/privacy/requests/${encodeURIComponent(props.requestId)}/notes`;
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (trimmed.length === 0) return setLocal(['Write the note first.']);
    if ([...trimmed].length > MAX_NOTE) return setLocal([`At most ${MAX_NOTE} characters.`]);
    setLocal([]);
    void add.run(async () => {
      await api('POST', path, { body: { text: trimmed } });
      setText('');
      props.onAdded();
    });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Add a note">
      <Field id="note-text" label="New note (internal; seen by operators only)" errors={fieldErrors(add.error, 'text', local)}>
        {(a11y) => (
          <textarea {...a11y} rows={3} maxLength={MAX_NOTE} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        )}
      </Field>
      <button type="submit" disabled={add.busy}>
        {add.busy ? 'Saving…' : 'Add note'}
      </button>
      <ErrorText error={add.error} />
    </form>
  );
}
