import type { Selectable } from 'kysely';
import type { OptOutTable, PrivacyPreferenceTable } from '../../db/tables/opt-out.table.js';
import {
  OPEN_OPT_OUT_STATUSES,
  OPT_OUT_KINDS,
  type OptOutAccepted,
  type OptOutChoice,
  type OptOutKind,
  type OptOutAgent,
  type OptOutResource,
  type OptOutSource,
  type OptOutStatus,
  type Preferences,
} from './opt-out.types.js';

/** `/api/v1/privacy/opt-outs/{id}`: where an opt-out is read. */
export function optOutLocation(id: string): string {
  return `/api/v1/privacy/opt-outs/${id}`;
}

/** The resource of a stored row. */
export function toOptOutResource(row: Selectable<OptOutTable>): OptOutResource {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    subject_provider: row.subject_provider,
    subject_id: row.subject_id,
    kind: row.kind as OptOutKind,
    choice: row.choice as OptOutChoice,
    source: row.source as OptOutSource,
    client_request_id: row.client_request_id,
    status: row.status as OptOutStatus,
    received_at: row.received_at,
    created_at: row.created_at,
    due_at: row.due_at,
    completed_at: row.completed_at,
    agent: row.agent ? (JSON.parse(row.agent) as OptOutAgent) : null,
  };
}

/** What the filing answers of a stored row: `{id, status, due_at}`. */
export function acceptedOf(row: Pick<Selectable<OptOutTable>, 'id' | 'status' | 'due_at'>): OptOutAccepted {
  return { id: row.id, status: row.status as OptOutStatus, due_at: row.due_at };
}

/**
 * Why `choice` cannot come from `source`, or null when it can (PRODUCT §2.18, 11 CCR §7028): an
 * opt-out needs no verification, but an opt-in needs the person's own two-step confirmation.
 * Of the paths built so far only an operator's (`api`, audited as such) gives one; the privacy
 * center's and an authorized agent's confirmed opt-ins come with those paths, and a GPC signal
 * is never an opt-in.
 */
export function optInSourceProblem(choice: string, source: string): string | null {
  if (choice !== 'opt_in' || source === 'api') return null;
  return `an opt_in is accepted only with source "api" (an operator's, audited); not from "${source}"`;
}

/** The statuses a `status` filter names, `open` standing for the non-final ones; sorted, each once; undefined for none. */
export function expandOptOutStatuses(status: readonly string[] | undefined): string[] | undefined {
  if (status === undefined || status.length === 0) return undefined;
  const all = status.flatMap((s) => (s === 'open' ? [...OPEN_OPT_OUT_STATUSES] : [s]));
  return [...new Set(all)].sort();
}

/** A subject's preferences from their stored rows: every kind, `not_set` where there is none. */
export function preferencesOf(
  rows: readonly Pick<Selectable<PrivacyPreferenceTable>, 'kind' | 'choice' | 'source' | 'updated_at'>[],
): Preferences {
  const byKind = new Map(rows.map((row) => [row.kind, row]));
  return Object.fromEntries(
    OPT_OUT_KINDS.map((kind) => {
      const row = byKind.get(kind);
      return [
        kind,
        row === undefined
          ? { choice: 'not_set', source: null, updated_at: null }
          : { choice: row.choice as OptOutChoice, source: row.source as OptOutSource, updated_at: row.updated_at },
      ];
    }),
  ) as Preferences;
}

/**
 * What an open opt-out becomes once one of its data tasks became final (PRODUCT §2.18: "status
 * and tasks as §2.9"), from its tasks' statuses: `processing` while any is `pending`; then
 * `failed` when any failed (a request with a failed task fails too), else `completed` (completed,
 * not applicable or superseded tasks all count as done).
 */
export function optOutStatusAfterTasks(taskStatuses: readonly string[]): 'processing' | 'completed' | 'failed' {
  if (taskStatuses.includes('pending')) return 'processing';
  return taskStatuses.includes('failed') ? 'failed' : 'completed';
}
