// Audit (PRODUCT.md §2b, §2.7, §2.16): the trail browsed with filters (workspace, action, target),
// oldest first as the API pages it (the heading says so: PRODUCT §2.21), filters kept in the address; and, for an admin token, the hash chain
// recomputed by the service (`GET /api/v1/audit-events/verify`), as `privacyctl audit verify` does.
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { AuditEvent, AuditEventPage, AuditVerification } from '../api/types';
import { hasScope, isServiceAdmin, useWhoAmI } from '../api/whoami';
import { ErrorText, Field, fieldErrors, Section, useSubmit } from '../components/forms';
import { formatTime } from '../lib/deadline';
import { hashParams, requestHref, setHashParams } from '../lib/router';

const FILTERS = ['workspace_id', 'action', 'target_type', 'target_id'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const LABELS: Record<keyof Filters, string> = {
  workspace_id: 'Workspace',
  action: 'Action (e.g. privacy_request.reject)',
  target_type: 'Target type (e.g. privacy_request)',
  target_id: 'Target id',
};

function fromHash(): Filters {
  const params = hashParams();
  return Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? ''])) as Filters;
}

function Verification() {
  const [result, setResult] = useState<AuditVerification | null>(null);
  const [checkedAt, setCheckedAt] = useState<string>('');
  const verify = useSubmit();
  const run = () =>
    void verify.run(async () => {
      setResult(await api<AuditVerification>('GET', '/api/v1/audit-events/verify'));
      setCheckedAt(new Date().toISOString().slice(0, 19).replace('T', ' '));
    });
  useEffect(run, []);
  return (
    <Section title="Chain verification">
      <ErrorText error={verify.error} />
      {result && (
        <p class={result.intact ? 'notice' : 'alert'} role="status">
          {result.intact
            ? `Intact: all ${result.entries} entries verify (checked ${checkedAt} UTC).`
            : `Broken at entry ${result.first_broken_seq} of ${result.entries}: the trail was changed after it was written (checked ${checkedAt} UTC).`}
        </p>
      )}
      <button type="button" onClick={run} disabled={verify.busy}>
        {verify.busy ? 'Verifying…' : 'Verify again'}
      </button>
    </Section>
  );
}

function Target({ event }: { event: AuditEvent }) {
  if (event.target_type === 'privacy_request') return <a href={requestHref(event.target_id)}>{event.target_id}</a>;
  return (
    <>
      {event.target_type} {event.target_id}
    </>
  );
}

export function AuditView() {
  const me = useWhoAmI();
  const [filters, setFilters] = useState<Filters>(fromHash);
  const [draft, setDraft] = useState<Filters>(filters);
  const [items, setItems] = useState<AuditEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const load = useSubmit();
  const fetchPage = (applied: Filters, after: string | null) =>
    load.run(async () => {
      const query = Object.fromEntries(Object.entries(applied).map(([k, v]) => [k, v.trim() || undefined]));
      const page = await api<AuditEventPage>('GET', `/api/v1/audit-events${queryString({ ...query, cursor: after, limit: 50 })}`);
      setItems((previous) => (after ? [...previous, ...page.items] : page.items));
      setCursor(page.next_cursor);
    });
  useEffect(() => {
    setHashParams(new URLSearchParams(Object.entries(filters).filter(([, v]) => v.trim() !== '')));
    void fetchPage(filters, null);
  }, [filters]);
  return (
    <>
      <h1 tabIndex={-1}>Audit</h1>
      <p>
        Every operator action and every change the service makes is an entry in one hash chain: each entry&apos;s hash covers the
        one before it, so an entry changed or removed afterwards breaks the chain from there on.
      </p>
      <Section title="Audit trail">
        <form
          class="filters"
          aria-label="Filter the audit trail"
          onSubmit={(e) => {
            e.preventDefault();
            setFilters(draft);
          }}
        >
          {FILTERS.map((key) => (
            <Field key={key} id={`audit-${key}`} label={LABELS[key]} errors={fieldErrors(load.error, key)}>
              {(a11y) => (
                <input {...a11y} value={draft[key]} onInput={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })} />
              )}
            </Field>
          ))}
          <button type="submit">Apply filters</button>
        </form>
        <ErrorText error={load.error} />
        <p role="status">{`${items.length} entr${items.length === 1 ? 'y' : 'ies'} shown${cursor ? ', more available' : ''}`}</p>
        {items.length > 0 && (
          <div class="table-scroll" tabIndex={0} role="region" aria-label="Audit entries">
            <table class="audit">
              <caption>Audit entries, oldest first (“Load more” goes on to later ones)</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Workspace</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {items.map((event) => (
                  <tr key={event.seq}>
                    <td data-label="#">{event.seq}</td>
                    <td data-label="When">{formatTime(event.occurred_at)}</td>
                    <td data-label="Who">{event.actor.name}</td>
                    <td data-label="Action">{event.action}</td>
                    <td data-label="Target">
                      <Target event={event} />
                    </td>
                    <td data-label="Workspace">{event.workspace_id ?? '—'}</td>
                    <td data-label="Reason">{event.reason ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {cursor && (
          <button type="button" class="secondary" disabled={load.busy} onClick={() => void fetchPage(filters, cursor)}>
            {load.busy ? 'Loading…' : 'Load more'}
          </button>
        )}
      </Section>
      {isServiceAdmin(me) && <Verification />}
      {!isServiceAdmin(me) && hasScope(me, 'admin') && (
        <p class="hint">Verifying the audit chain covers the whole service: it needs an admin token for every workspace (*).</p>
      )}
    </>
  );
}
