// The review before release (PRODUCT §2.20, §2.21): a finished access/export request waits
// (`action_required`, `awaiting_review`) while an officer reads what was found about the person,
// withholds each value that would give away something about someone else (GDPR Art. 15(4)) with
// the reason the person will read in its place, and releases it. Another operator releases when a
// redaction of yours stands (four eyes, as for approval).
import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { PrivacyRequest, Redaction } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { useLoad } from '../components/use-load';
import { type PackageLeaf, packageLeaves } from '../lib/package-leaves';

/** The `status_reason` of a request waiting for this review. */
export const AWAITING_REVIEW = 'awaiting_review';

/** Values listed per part of the package; past it, the path form reaches the rest. */
const MAX_LISTED = 400;

const path = (request: PrivacyRequest, what: string) => `/api/v1/privacy/requests/${encodeURIComponent(request.id)}/${what}`;

/** The reason, as the API bounds it (1–500 characters). */
function reasonProblems(reason: string): string[] {
  const trimmed = reason.trim();
  if (!trimmed) return ['Give the reason the person will read in place of the value.'];
  return [...trimmed].length > 500 ? ['At most 500 characters.'] : [];
}

/** Withholds the value at `path` (fixed, from a listed value, or typed). */
function WithholdForm(props: { request: PrivacyRequest; path?: string; onDone: () => void; onClose?: () => void }) {
  const [pointer, setPointer] = useState(props.path ?? '');
  const [reason, setReason] = useState('');
  const [local, setLocal] = useState<Record<string, string[]>>({});
  const submit = useSubmit();
  const id = props.path === undefined ? 'withhold-any' : `withhold-${props.path.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const problems: Record<string, string[]> = { reason: reasonProblems(reason) };
    if (!pointer.startsWith('/')) problems.path = ['A JSON Pointer starts with "/", e.g. /systems/shop/orders/0/notes'];
    setLocal(problems);
    if (Object.values(problems).some((p) => p.length)) return;
    void submit.run(async () => {
      await api<Redaction>('POST', path(props.request, 'package/redactions'), { body: { path: pointer, reason: reason.trim() } });
      props.onDone();
    });
  };
  return (
    <form
      class="action-form"
      aria-label={props.path ? `Withhold ${props.path}` : 'Withhold a value by its path'}
      noValidate
      onSubmit={onSubmit}
    >
      {props.path === undefined && (
        <Field
          id={`${id}-path`}
          label="Path (JSON Pointer into the package)"
          hint="A value not listed above, or a whole part: /systems/shop/orders/0"
          errors={fieldErrors(submit.error, 'path', local.path)}
        >
          {(a11y) => <input {...a11y} value={pointer} maxLength={2000} onInput={(e) => setPointer(e.currentTarget.value)} />}
        </Field>
      )}
      <Field
        id={`${id}-reason`}
        label="Reason the person reads"
        hint={`They will read “[withheld: ${reason.trim() || '…'}]” in its place.`}
        errors={fieldErrors(submit.error, 'reason', local.reason)}
      >
        {(a11y) => <input {...a11y} value={reason} maxLength={500} onInput={(e) => setReason(e.currentTarget.value)} />}
      </Field>
      {props.path !== undefined && fieldErrors(submit.error, 'path').length > 0 && (
        <p class="field-error">{fieldErrors(submit.error, 'path').join(' ')}</p>
      )}
      <div class="buttons">
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Sending…' : 'Withhold'}
        </button>
        {props.onClose && (
          <button type="button" class="secondary" onClick={props.onClose}>
            Close
          </button>
        )}
      </div>
      <ErrorText
        error={fieldErrors(submit.error, 'path').length || fieldErrors(submit.error, 'reason').length ? null : submit.error}
      />
    </form>
  );
}

function LeafRow(props: {
  request: PrivacyRequest;
  leaf: PackageLeaf;
  redaction: Redaction | undefined;
  canWrite: boolean;
  onChanged: () => void;
}) {
  const { leaf, redaction } = props;
  const [open, setOpen] = useState(false);
  const submit = useSubmit();
  const takeBack = () =>
    void submit.run(async () => {
      await api<unknown>('DELETE', path(props.request, `package/redactions/${encodeURIComponent(redaction!.id)}`));
      props.onChanged();
    });
  return (
    <li class={redaction ? 'leaf withheld' : 'leaf'}>
      <code class="leaf-path">{leaf.path}</code>
      <span class="leaf-value">{leaf.text}</span>
      {redaction && <span class="hint">Withheld by {redaction.created_by}</span>}
      {props.canWrite && redaction && (
        <button type="button" class="secondary" onClick={takeBack} disabled={submit.busy}>
          Take back
        </button>
      )}
      {props.canWrite && !redaction && !open && (
        <button type="button" class="secondary" onClick={() => setOpen(true)} aria-label={`Withhold ${leaf.path}`}>
          Withhold
        </button>
      )}
      {open && (
        <WithholdForm
          request={props.request}
          path={leaf.path}
          onDone={() => {
            setOpen(false);
            props.onChanged();
          }}
          onClose={() => setOpen(false)}
        />
      )}
      <ErrorText error={submit.error} />
    </li>
  );
}

function ReleaseForm(props: { request: PrivacyRequest; redactions: Redaction[]; onReleased: (r: PrivacyRequest) => void }) {
  const [reason, setReason] = useState('');
  const submit = useSubmit();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit.run(async () => {
      const body = reason.trim() ? { reason: reason.trim() } : {};
      props.onReleased(await api<PrivacyRequest>('POST', path(props.request, 'release'), { body }));
    });
  };
  const n = props.redactions.length;
  return (
    <form class="action-form" aria-label="Release the package" noValidate onSubmit={onSubmit}>
      <p>
        Release sends the person the letter and the package{' '}
        {n === 0 ? 'as found' : `with ${n} value${n === 1 ? '' : 's'} withheld`} and the “done” mail; the request completes. An
        operator whose redaction still stands cannot release: another operator checks it.
      </p>
      <Field id="release-reason" label="Note for the audit trail (optional)">
        {(a11y) => <input {...a11y} value={reason} maxLength={1000} onInput={(e) => setReason(e.currentTarget.value)} />}
      </Field>
      <div class="buttons">
        <button type="submit" disabled={submit.busy}>
          {submit.busy ? 'Releasing…' : 'Release'}
        </button>
      </div>
      <ErrorText error={submit.error} />
    </form>
  );
}

/** The package under review, each value with its withhold control, and Release. */
export function PackageReview(props: { request: PrivacyRequest; canWrite: boolean; onChanged: (r: PrivacyRequest) => void }) {
  const { request } = props;
  const [pkg, setPkg] = useState<unknown>(undefined);
  const [redactions, setRedactions] = useState<Redaction[]>([]);
  const [version, setVersion] = useState(0);
  const load = useLoad(
    async (isCurrent) => {
      const [found, listed] = await Promise.all([
        api<unknown>('GET', path(request, 'package')),
        api<{ items: Redaction[] }>('GET', path(request, 'package/redactions')),
      ]);
      if (!isCurrent()) return;
      setPkg(found);
      setRedactions(listed.items);
    },
    [request.id, version],
  );
  if (request.status !== 'action_required' || request.status_reason !== AWAITING_REVIEW) return null;
  const reload = () => setVersion((n) => n + 1);
  const byPath = new Map(redactions.map((r) => [r.path, r]));
  const parts = pkg === undefined ? [] : ['/data', '/systems'].map((root) => ({ root, ...packageLeaves(pkg, root, MAX_LISTED) }));
  return (
    <>
      <p>
        What was found about the person, value by value. Withhold what would give away something about someone else (GDPR Art.
        15(4)): a colleague quoted in a ticket, an order shipped to a neighbour. The person reads the reason in its place.
      </p>
      <ErrorText error={load.error} />
      {parts.map((part) => (
        <div key={part.root}>
          <h3>{part.root === '/data' ? 'This service’s records' : 'Data systems'}</h3>
          {part.leaves.length === 0 ? (
            <p>Nothing found here.</p>
          ) : (
            <ul class="leaves">
              {part.leaves.map((leaf) => (
                <LeafRow
                  key={leaf.path}
                  request={request}
                  leaf={leaf}
                  redaction={byPath.get(leaf.path)}
                  canWrite={props.canWrite}
                  onChanged={reload}
                />
              ))}
            </ul>
          )}
          {part.more > 0 && <p class="hint">{part.more} more values not listed: withhold them by their path below.</p>}
        </div>
      ))}
      {redactions.some((r) => !parts.some((p) => p.leaves.some((l) => l.path === r.path))) && (
        <p class="hint">
          Also withheld:{' '}
          {redactions
            .filter((r) => !parts.some((p) => p.leaves.some((l) => l.path === r.path)))
            .map((r) => `${r.path} (${r.reason})`)
            .join('; ')}
        </p>
      )}
      {props.canWrite && (
        <>
          <h3>Withhold by path</h3>
          <WithholdForm request={request} onDone={reload} />
          <h3>Release</h3>
          <ReleaseForm request={request} redactions={redactions} onReleased={props.onChanged} />
        </>
      )}
    </>
  );
}
