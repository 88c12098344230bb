// Request (PRODUCT.md §2b): its fields, its deadline with the extension, the actions its state
// allows and its results. Opening it shows the subject, which the queue masks.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { AuditEvent, PrivacyRequest } from '../api/types';
import { ErrorText, Section, useSubmit } from '../components/forms';
import { deadlineText, formatTime, regulationLabel, statusLabel } from '../lib/deadline';
import { actorPrincipal, hasScope, useWhoAmI } from '../api/whoami';
import { RequestActions } from './request-actions';
import { Assignment, Notes } from './request-notes';
import { RequestResults } from './request-results';
import { DataTasks, taskIds } from './request-tasks';
import { Timeline } from './request-timeline';

function Fields({ request }: { request: PrivacyRequest }) {
  const rows: [string, string][] = [
    ['Type', request.request_type],
    ['Status', statusLabel(request.status) + (request.status_reason ? ` (${request.status_reason})` : '')],
    ['Workspace', request.workspace_id],
    ['Subject', `${request.subject_provider}: ${request.subject_id}`],
    ['Scope', request.scope.join(', ')],
    ['Regulation', regulationLabel(request.regulation)],
    ['Received', formatTime(request.received_at)],
    ['Filed here', formatTime(request.created_at)],
    ['Due', formatTime(request.due_at)],
    ['Extended to', request.extended_due_at ? formatTime(request.extended_due_at) : 'not extended'],
    ['Completed', formatTime(request.completed_at)],
    ['Your reference', request.client_request_id],
    ['Intake reference', request.intake_ref],
  ];
  return (
    <dl class="fields">
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function RequestView({ id }: { id: string }) {
  const [request, setRequest] = useState<PrivacyRequest | null>(null);
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [version, setVersion] = useState(0);
  const [taskNotes, setTaskNotes] = useState<ReadonlyMap<string, string>>(new Map());
  const load = useSubmit();
  const me = useWhoAmI();
  const canWrite = hasScope(me, 'privacy:write');
  const created = events.find((e) => e.action === 'privacy_request.created');
  const isFiler = me !== null && created !== undefined && actorPrincipal(created.actor) === me.id;
  const reload = () =>
    void load.run(async () => setRequest(await api<PrivacyRequest>('GET', `/api/v1/privacy/requests/${encodeURIComponent(id)}`)));
  useEffect(reload, [id]);
  const changed = (updated: PrivacyRequest) => {
    setRequest(updated);
    setVersion((n) => n + 1);
  };

  const deadline = request ? deadlineText(request) : null;
  return (
    <>
      <p>
        <a href="#/queue">← Back to the queue</a>
      </p>
      <h1 tabIndex={-1}>Request {id}</h1>
      <ErrorText error={load.error} />
      {request && deadline && (
        <>
          <p class={`deadline${deadline.overdue ? ' overdue' : ''}`}>
            <strong>{deadline.text}</strong>
            {request.extended_due_at ? ' — extended once, no further extension possible' : ''}
          </p>
          <Section title="Details">
            <Fields request={request} />
          </Section>
          <Section title="Actions">
            <Assignment request={request} me={me} canWrite={canWrite} onChanged={changed} />
            <RequestActions request={request} onChanged={changed} canWrite={canWrite} isFiler={isFiler} />
          </Section>
          <Section title="Notes">
            <Notes requestId={request.id} canWrite={canWrite} onAdded={() => setVersion((n) => n + 1)} />
          </Section>
          <Section title="Data tasks">
            <DataTasks
              workspace={request.workspace_id}
              ids={taskIds(events)}
              onTasks={(tasks) =>
                setTaskNotes(
                  new Map(tasks.flatMap((task) => (typeof task.result?.note === 'string' ? [[task.id, task.result.note]] : []))),
                )
              }
              onChanged={() => {
                reload();
                setVersion((n) => n + 1);
              }}
            />
          </Section>
          <Section title="Timeline">
            <Timeline requestId={request.id} version={version} onEvents={setEvents} taskNotes={taskNotes} />
          </Section>
          <Section title="Results">
            <RequestResults request={request} />
          </Section>
        </>
      )}
    </>
  );
}
