// Request (PRODUCT.md §2b): its fields, its deadline with the extension, the actions its state
// allows and its results. Opening it shows the subject, which the queue masks.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { AuditEvent, DrpRequestDetail, PrivacyRequest } from '../api/types';
import { ErrorText, Section, useSubmit } from '../components/forms';
import { deadlineText, formatTime, regulationLabel, statusLabel } from '../lib/deadline';
import { actorPrincipal, hasScope, useWhoAmI } from '../api/whoami';
import { isWebLink } from '../lib/links';
import { requestHref } from '../lib/router';
import { IdentityReview } from './identity-review';
import { AWAITING_REVIEW, PackageReview } from './package-review';
import { SubjectPreferences } from './request-preferences';
import { RequestActions } from './request-actions';
import { Assignment, NoteForm } from './request-notes';
import { RequestResults } from './request-results';
import { DataTasks, taskIds } from './request-tasks';
import { Timeline } from './request-timeline';

/** The intake reference, a link when it is a web address (a ticket, a form), opened without access to the console. */
function IntakeRef({ value }: { value: string }) {
  if (!isWebLink(value)) return <>{value}</>;
  return (
    <a href={value.trim()} target="_blank" rel="noopener noreferrer">
      {value}
    </a>
  );
}

/** The request a repeat repeats (PRODUCT §2.20), opened in the console. */
function RelatedRequest({ id }: { id: string }) {
  return <a href={requestHref(id)}>{id}</a>;
}

/** What the agent said beside the identity, read from its DRP record (relationships hints, attested flags). */
function DrpHints({ requestId }: { requestId: string }) {
  const [record, setRecord] = useState<DrpRequestDetail | null>(null);
  useEffect(() => {
    // A hint only: the page stands without it (an officer without the DRP record's workspace gets a 404).
    api<DrpRequestDetail>('GET', `/api/v1/drp/requests/${encodeURIComponent(requestId)}`)
      .then(setRecord)
      .catch(() => setRecord(null));
  }, [requestId]);
  if (record === null) return null;
  const attested = [
    record.email_verified === true && 'e-mail verified',
    record.phone_number_verified === true && 'phone number verified',
    record.address_verified === true && 'address verified',
  ].filter((x): x is string => typeof x === 'string');
  return (
    <>
      <br />
      Relationships the agent named: {record.relationships.length === 0 ? 'none' : record.relationships.join(', ')}
      {attested.length > 0 && (
        <>
          <br />
          The agent attests: {attested.join(', ')}
        </>
      )}
    </>
  );
}

/** Who filed a request an authorized agent filed for the person (PRODUCT §2.19), with its DRP ids, hints and proof. */
function FiledByAgent({ agent }: { agent: NonNullable<PrivacyRequest['agent']> }) {
  return (
    <>
      {agent.name} (authorized agent) <code>{agent.id}</code>
      <br />
      {agent.drp_request_id === null ? (
        'Through the privacy center, confirmed by the person'
      ) : (
        <>
          DRP request <code>{agent.drp_request_id}</code>
          <DrpHints requestId={agent.drp_request_id} />
        </>
      )}
      {agent.proof_ref !== null && (
        <>
          <br />
          Proof of authority: {agent.proof_ref}
        </>
      )}
    </>
  );
}

/** What a request waits for, in words (its `status_reason` kept for searching the audit trail). */
const WAITS_FOR: Record<string, string> = {
  identity_unmatched: 'an identity review: nothing matched the identity it names',
  controller_unnamed: 'the workspace’s controller profile: no letter goes out without the controller named',
  awaiting_review: 'a review of its package before release',
  repeat_request: 'a decision: it repeats a recent request of the same person',
};

function StatusText({ request }: { request: PrivacyRequest }) {
  const reason = request.status_reason;
  if (!reason) return <>{statusLabel(request.status)}</>;
  const waits = request.status === 'action_required' ? WAITS_FOR[reason] : undefined;
  return (
    <>
      {statusLabel(request.status)}
      {waits ? (
        <>
          : waits for {waits} <code>{reason}</code>
        </>
      ) : (
        `: ${reason}`
      )}
      {reason === 'controller_unnamed' && (
        <>
          {' '}
          (<a href={`#/settings?workspace=${encodeURIComponent(request.workspace_id)}`}>name the controller</a>)
        </>
      )}
    </>
  );
}

function Fields({ request }: { request: PrivacyRequest }) {
  const rows: [string, ComponentChildren][] = [
    ['Type', request.request_type],
    ['Status', <StatusText request={request} key="status" />],
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
    ['Intake reference', <IntakeRef value={request.intake_ref} key="intake" />],
    ...(request.agent ? [['Filed by', <FiledByAgent agent={request.agent} key="agent" />] as [string, ComponentChildren]] : []),
    ...(request.related_request_id
      ? [['Repeats', <RelatedRequest id={request.related_request_id} key="related" />] as [string, ComponentChildren]]
      : []),
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
          {request.status === 'action_required' && request.status_reason === AWAITING_REVIEW && (
            <Section title="Review before release" id="package-review">
              <PackageReview request={request} canWrite={canWrite} onChanged={changed} />
            </Section>
          )}
          <Section title="Subject's opt-out preferences" id="preferences">
            <SubjectPreferences request={request} />
          </Section>
          <Section title="Actions">
            <Assignment request={request} me={me} canWrite={canWrite} onChanged={changed} />
            {canWrite && <IdentityReview request={request} onChanged={changed} />}
            <RequestActions request={request} onChanged={changed} canWrite={canWrite} isFiler={isFiler} />
          </Section>
          {canWrite && (
            <Section title="Add a note">
              <NoteForm requestId={request.id} onAdded={() => setVersion((n) => n + 1)} />
            </Section>
          )}
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
