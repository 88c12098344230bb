// A request's timeline from the audit trail (PRODUCT.md §2.7: `target_type=privacy_request`, its
// data tasks' entries included): who did what, when and why. Its data tasks are found there too.
import { useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { AuditEvent, AuditEventPage, Note, NoteList } from '../api/types';
import { ErrorText } from '../components/forms';
import { useLoad } from '../components/use-load';
import { formatTime } from '../lib/deadline';

/** Every entry of the request's timeline, oldest first (all pages). */
export async function loadTimeline(requestId: string): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const query = queryString({ target_type: 'privacy_request', target_id: requestId, cursor, limit: 100 });
    const page: AuditEventPage = await api<AuditEventPage>('GET', `/api/v1/audit-events${query}`);
    events.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor && events.length < 1000);
  return events;
}

/** The request's notes by id: the timeline shows each note's text at its `note_added` entry. */
async function loadNotes(requestId: string): Promise<ReadonlyMap<string, Note>> {
  const list = await api<NoteList>('GET', `/api/v1/privacy/requests/${encodeURIComponent(requestId)}/notes`);
  return new Map(list.items.map((note) => [note.id, note]));
}

/** Past-tense words for the request's own actions (audit `action` `privacy_request.<verb>`). */
const VERBS: Record<string, string> = {
  created: 'filed',
  approve: 'approved',
  reject: 'rejected',
  cancel: 'canceled',
  extend: 'extended',
  corrections: 'corrections submitted',
  redaction_added: 'value withheld',
  redaction_removed: 'withheld value taken back',
  released: 'package released',
};

/** `privacy_request.extend` → `extended`; `data_task.created` → `data task created`. */
function actionLabel(event: AuditEvent): string {
  const [kind, verb = ''] = event.action.split('.');
  if (kind === 'privacy_request') return VERBS[verb] ?? verb.replace(/_/g, ' ');
  return event.action.replace(/[._]/g, ' ');
}

/**
 * The timeline list. `version` reloads it (after an action); `onEvents` hands the entries to the
 * caller (the data tasks are named in them). A note's entry shows the note's text (PRODUCT.md
 * §2.16: notes are shown in the timeline; its audit entry holds only the text's SHA-256), and a
 * data task's result entry the task's note.
 */
export function Timeline(props: {
  requestId: string;
  version: number;
  onEvents?: (events: AuditEvent[]) => void;
  /** Task id → its note (from the task: its audit entry holds only the note's SHA-256, PRODUCT §2.13). */
  taskNotes?: ReadonlyMap<string, string>;
}) {
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [notes, setNotes] = useState<ReadonlyMap<string, Note>>(new Map());
  const load = useLoad(
    async (isCurrent) => {
      const [loaded, byId] = await Promise.all([loadTimeline(props.requestId), loadNotes(props.requestId)]);
      if (!isCurrent()) return;
      setEvents(loaded);
      setNotes(byId);
      props.onEvents?.(loaded);
    },
    [props.requestId, props.version],
  );
  return (
    <>
      <ErrorText error={load.error} />
      {events && events.length === 0 && <p>No entry yet.</p>}
      {events && events.length > 0 && (
        <ol class="timeline">
          {events.map((event) => (
            <li key={event.seq}>
              <p>
                <strong>{actionLabel(event)}</strong> by {event.actor.name} ({event.actor.type}), {formatTime(event.occurred_at)}
                {event.target_type !== 'privacy_request' ? ` — ${event.target_id}` : ''}
              </p>
              {event.reason && <p class="reason">Reason: {event.reason}</p>}
              {typeof event.details.path === 'string' && (
                <p class="reason">
                  Path: <code>{event.details.path}</code>
                </p>
              )}
              {typeof event.details.note_id === 'string' && notes.has(event.details.note_id) && (
                <p class="note-text">
                  {notes.get(event.details.note_id)?.text ?? <em>Note erased with the subject&apos;s data</em>}
                </p>
              )}
              {typeof event.details.note_sha256 === 'string' && props.taskNotes?.get(event.target_id) && (
                <p class="reason">Note: {props.taskNotes.get(event.target_id)}</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
