// Opt-outs (PRODUCT §2.18, §2.21): the opt-outs and opt-ins of the workspaces the token may read,
// newest first, filtered by workspace, "open only" and "overdue only" (kept in the address: the
// queue's opt-out counts link here), paged with the API cursor as the queue is. Read-only: filing one is the privacy center's or the API's work.
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { OptOut, OptOutPage } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { formatTime, statusLabel } from '../lib/deadline';
import {
  isOverdueOptOut,
  type OptOutFilters as Filters,
  optOutFilterParams,
  optOutFiltersFrom,
  optOutListQuery,
} from '../lib/opt-out-filters';
import { hashParams, setHashParams } from '../lib/router';

/** An opt-out's kind in plain words. */
export const KIND_LABELS: Record<OptOut['kind'], string> = {
  sale_sharing: 'Do not sell or share',
  sensitive_use: 'Limit sensitive data use',
  direct_marketing: 'Direct marketing',
};

export const CHOICE_LABELS: Record<OptOut['choice'] | 'not_set', string> = {
  opt_out: 'opted out',
  opt_in: 'opted in',
  not_set: 'not set',
};

export const SOURCE_LABELS: Record<OptOut['source'], string> = {
  form: 'privacy center form',
  gpc: 'Global Privacy Control',
  agent: 'authorized agent',
  api: 'API',
};

const fromHash = (): Filters => optOutFiltersFrom(hashParams());

function Row({ optOut }: { optOut: OptOut }) {
  return (
    <tr>
      <td data-label="Opt-out">{optOut.id}</td>
      <td data-label="Kind">{KIND_LABELS[optOut.kind]}</td>
      <td data-label="Choice">{CHOICE_LABELS[optOut.choice]}</td>
      <td data-label="Source">{SOURCE_LABELS[optOut.source]}</td>
      <td data-label="Workspace">{optOut.workspace_id}</td>
      <td data-label="Status">
        <span class={`status status-${optOut.status}`}>{statusLabel(optOut.status)}</span>
      </td>
      <td data-label="Received">{formatTime(optOut.received_at)}</td>
      {isOverdueOptOut(optOut, Date.now()) ? (
        <td data-label="Due" class="overdue">
          {formatTime(optOut.due_at)}, overdue
        </td>
      ) : (
        <td data-label="Due">{optOut.completed_at ? `done ${formatTime(optOut.completed_at)}` : formatTime(optOut.due_at)}</td>
      )}
    </tr>
  );
}

export function OptOutsView() {
  const [filters, setFilters] = useState<Filters>(fromHash);
  const [draft, setDraft] = useState<Filters>(filters);
  const [items, setItems] = useState<OptOut[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const load = useSubmit();

  const fetchPage = (applied: Filters, after: string | null) =>
    load.run(async () => {
      const page = await api<OptOutPage>('GET', `/api/v1/privacy/opt-outs${queryString(optOutListQuery(applied, after))}`);
      setItems((previous) => (after ? [...previous, ...page.items] : page.items));
      setCursor(page.next_cursor);
      setLoaded(true);
    });
  useEffect(() => {
    setHashParams(optOutFilterParams(filters));
    void fetchPage(filters, null);
  }, [filters]);

  return (
    <>
      <h1 tabIndex={-1}>Opt-outs</h1>
      <p class="hint">
        Opt-outs and opt-ins from the privacy center, Global Privacy Control signals, authorized agents and the API, newest first.
        Every workspace your token may read, unless you name some (comma-separated).
      </p>
      <form
        class="filters"
        aria-label="Filter the opt-outs"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...draft });
        }}
      >
        <Field id="optout-workspace" label="Workspaces" errors={fieldErrors(load.error, 'workspace_id')}>
          {(a11y) => (
            <input
              {...a11y}
              value={draft.workspaces}
              onInput={(e) => setDraft({ ...draft, workspaces: e.currentTarget.value })}
            />
          )}
        </Field>
        <div class="field">
          <label>
            <input
              type="checkbox"
              id="optout-open"
              checked={draft.openOnly}
              onChange={(e) => setDraft({ ...draft, openOnly: e.currentTarget.checked })}
            />{' '}
            Open only (queued or processing)
          </label>
        </div>
        <div class="field">
          <label>
            <input
              type="checkbox"
              id="optout-overdue"
              checked={draft.overdueOnly}
              onChange={(e) => setDraft({ ...draft, overdueOnly: e.currentTarget.checked })}
            />{' '}
            Overdue only (open, past their due date)
          </label>
        </div>
        <button type="submit">Apply filters</button>
      </form>
      <ErrorText error={load.error} />
      <p role="status">
        {loaded ? `${items.length} opt-out${items.length === 1 ? '' : 's'} shown${cursor ? ', more available' : ''}` : 'Loading…'}
      </p>
      {items.length > 0 && (
        <table class="queue opt-outs">
          <caption class="visually-hidden">Opt-outs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Opt-out</th>
              <th scope="col">Kind</th>
              <th scope="col">Choice</th>
              <th scope="col">Source</th>
              <th scope="col">Workspace</th>
              <th scope="col">Status</th>
              <th scope="col">Received</th>
              <th scope="col">Due</th>
            </tr>
          </thead>
          <tbody>
            {items.map((optOut) => (
              <Row optOut={optOut} key={optOut.id} />
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" class="secondary" disabled={load.busy} onClick={() => void fetchPage(filters, cursor)}>
          {load.busy ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
