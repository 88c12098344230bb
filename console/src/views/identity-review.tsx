// Identity review (PRODUCT §2.13, §2.21): a request for which nothing here or in any data system
// matched the identity waits (`action_required`, `identity_unmatched`) until an operator either
// points it to the identity it meant (it runs again) or confirms that no data is held (it
// completes, and the person is told the sentence shown here, taken from the service before
// anything is confirmed: GET …/{id}/confirm-no-data).
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { IdentityBody, NoDataPreview, PrivacyRequest } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { useLoad } from '../components/use-load';

/** The `status_reason` of a request waiting for this review. */
export const IDENTITY_UNMATCHED = 'identity_unmatched';

const path = (request: PrivacyRequest, what: string) => `/api/v1/privacy/requests/${encodeURIComponent(request.id)}/${what}`;

/** The reason, as the API bounds it (1–1000 characters), asked before anything is sent. */
function reasonProblems(reason: string): string[] {
  const trimmed = reason.trim();
  if (!trimmed) return ['Give a reason: it is recorded in the audit trail.'];
  return [...trimmed].length > 1000 ? ['At most 1000 characters.'] : [];
}

function Repoint(props: { request: PrivacyRequest; onDone: (r: PrivacyRequest) => void; onClose: () => void }) {
  const [provider, setProvider] = useState(props.request.subject_provider);
  const [subjectId, setSubjectId] = useState('');
  const [reason, setReason] = useState('');
  const [local, setLocal] = useState<Record<string, string[]>>({});
  const submit = useSubmit();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const problems: Record<string, string[]> = { reason: reasonProblems(reason) };
    if (!provider.trim()) problems.subject_provider = ['Field required'];
    if (!subjectId.trim()) problems.subject_id = ['Give the identity the request meant'];
    setLocal(problems);
    if (Object.values(problems).some((p) => p.length)) return;
    void submit.run(async () => {
      const body: IdentityBody = { subject_provider: provider.trim(), subject_id: subjectId.trim(), reason: reason.trim() };
      props.onDone(await api<PrivacyRequest>('POST', path(props.request, 'identity'), { body }));
    });
  };
  return (
    <form class="action-form" aria-label="Point to another identity" noValidate onSubmit={onSubmit}>
      <p>
        The request now names <strong>{`${props.request.subject_provider}: ${props.request.subject_id}`}</strong>, which matched
        nothing. Give the identity it meant: the request runs again from the start for that identity, with a new task for every
        data system, and its deadline stays as it is.
      </p>
      <Field
        id="repoint-provider"
        label="Subject provider"
        hint="email, or the provider of an account id: github, clerk, okta…"
        errors={fieldErrors(submit.error, 'subject_provider', local.subject_provider)}
      >
        {(a11y) => <input {...a11y} value={provider} maxLength={100} onInput={(e) => setProvider(e.currentTarget.value)} />}
      </Field>
      <Field id="repoint-subject" label="Subject id" errors={fieldErrors(submit.error, 'subject_id', local.subject_id)}>
        {(a11y) => <input {...a11y} value={subjectId} maxLength={300} onInput={(e) => setSubjectId(e.currentTarget.value)} />}
      </Field>
      <Field
        id="repoint-reason"
        label="Reason (recorded in the audit trail; no personal data)"
        errors={fieldErrors(submit.error, 'reason', local.reason)}
      >
        {(a11y) => (
          <textarea {...a11y} rows={2} maxLength={1000} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        )}
      </Field>
      <div class="buttons">
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Sending…' : 'Confirm: point to this identity'}
        </button>
        <button type="button" class="secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
      <ErrorText error={submit.error} />
    </form>
  );
}

function ConfirmNoData(props: { request: PrivacyRequest; onDone: (r: PrivacyRequest) => void; onClose: () => void }) {
  const [preview, setPreview] = useState<NoDataPreview | null>(null);
  const [reason, setReason] = useState('');
  const [local, setLocal] = useState<string[]>([]);
  const submit = useSubmit();
  const load = useLoad(
    async (isCurrent) => {
      const answer = await api<NoDataPreview>('GET', path(props.request, 'confirm-no-data'));
      if (isCurrent()) setPreview(answer);
    },
    [props.request.id],
  );
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const problems = reasonProblems(reason);
    setLocal(problems);
    if (problems.length) return;
    void submit.run(async () =>
      props.onDone(
        await api<PrivacyRequest>('POST', path(props.request, 'confirm-no-data'), { body: { reason: reason.trim() } }),
      ),
    );
  };
  return (
    <form class="action-form" aria-label="Confirm no data is held" noValidate onSubmit={onSubmit}>
      <p>
        Confirm only after searching every place the person’s data could be. The request then completes, and the person’s
        {props.request.request_type === 'deletion' || props.request.request_type === 'correction'
          ? ' confirmation'
          : ' letter'}{' '}
        says:
      </p>
      <ErrorText error={load.error} />
      {preview && (
        <blockquote class="person-sees" aria-label="What the person is told">
          {preview.statement}
        </blockquote>
      )}
      <Field
        id="no-data-reason"
        label="Reason (recorded in the audit trail; no personal data)"
        hint="What you searched, e.g. the CRM and the mailbox by hand"
        errors={fieldErrors(submit.error, 'reason', local)}
      >
        {(a11y) => (
          <textarea {...a11y} rows={2} maxLength={1000} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        )}
      </Field>
      <div class="buttons">
        <button type="submit" disabled={submit.busy || !preview}>
          {submit.busy ? 'Sending…' : 'Confirm: no data is held'}
        </button>
        <button type="button" class="secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
      <ErrorText error={submit.error} />
    </form>
  );
}

/** The review's two actions, for a request waiting for it and a token that may write. */
export function IdentityReview(props: { request: PrivacyRequest; onChanged: (r: PrivacyRequest) => void }) {
  const [open, setOpen] = useState<'repoint' | 'confirm' | null>(null);
  const [done, setDone] = useState('');
  const finish = (label: string) => (updated: PrivacyRequest) => {
    setOpen(null);
    setDone(`${label}: done. Status is now ${updated.status.replace(/_/g, ' ')}.`);
    props.onChanged(updated);
  };
  if (props.request.status !== 'action_required' || props.request.status_reason !== IDENTITY_UNMATCHED)
    return done ? (
      <p class="notice" role="status">
        {done}
      </p>
    ) : null;
  return (
    <div class="review">
      <h3>Identity review</h3>
      <p>
        Nothing this service or its data systems hold matched the identity this request names, so it has not told the person
        anything yet. Point it to the identity it meant, or confirm that no data of the person is held.
      </p>
      <div class="buttons" role="group" aria-label="Identity review">
        <button type="button" aria-expanded={open === 'repoint'} onClick={() => setOpen(open === 'repoint' ? null : 'repoint')}>
          Point to another identity
        </button>
        <button type="button" aria-expanded={open === 'confirm'} onClick={() => setOpen(open === 'confirm' ? null : 'confirm')}>
          Confirm no data is held
        </button>
      </div>
      {open === 'repoint' && (
        <Repoint request={props.request} onDone={finish('Pointed to another identity')} onClose={() => setOpen(null)} />
      )}
      {open === 'confirm' && (
        <ConfirmNoData request={props.request} onDone={finish('Confirmed no data is held')} onClose={() => setOpen(null)} />
      )}
    </div>
  );
}
