/**
 * Rows of the privacy-request side of the growth seed, in the steady state of a service whose
 * worker and sweeper keep up: requests over the last `historyDays` (mostly final; a few open ones
 * waiting for an operator, some of them overdue; none queued), the results of completed ones,
 * idempotency records for the last 24 h only (older ones were swept), tombstones of completed
 * deletions, and the audit trail (created + outcome) continuing the existing hash chain.
 */
import { accountPseudonym } from '../../src/lib/keyed-hash.js';
import { chainHash } from '../../src/modules/audit/audit-chain.fns.js';
import { IDEMPOTENCY_TTL_MS } from '../../src/modules/idempotency/idempotency.fns.js';
import { addCalendarMonths } from '../../src/modules/privacy-requests/deadline.fns.js';
import { toResource } from '../../src/modules/privacy-requests/privacy-request.fns.js';
import { requestLocation } from '../../src/modules/request-model/request-model.js';
import {
  type NewRequestRow,
  // Rows are built by column name from the repository's list, so the two cannot drift apart.
  REQUEST_COLUMNS as REQUEST_FIELDS,
} from '../../src/modules/privacy-requests/privacy-request.repository.js';
import { buildErasureReport, zeroCounts } from '../../src/modules/subject-data/erasure-report.fns.js';
import { buildExportPackage } from '../../src/modules/subject-data/package.fns.js';
import { categoriesInScope } from '../../src/modules/subject-data/scope.fns.js';
import { type BulkWriter, columns, type Row } from './bulk-insert.js';
import { workspaceOfSubject } from './seed-events.js';
import { at, DAY_MS, githubAccountOf, hex, pastId, pick, type SeedPlan } from './seed-plan.js';

const BATCH = 10_000;
const TYPES = ['access', 'access', 'access', 'access', 'access', 'export', 'export', 'deletion', 'correction', 'correction'];
const REQUEST_COLUMNS = columns(REQUEST_FIELDS, ['attempts']);
const RESULT_COLUMNS = columns(['request_id', 'package', 'report', 'created_at']);
const IDEMPOTENCY_COLUMNS = columns(
  [
    'principal_id',
    'idempotency_key',
    'fingerprint',
    'state',
    'response_status',
    'response_location',
    'response_body',
    'created_at',
    'expires_at',
  ],
  ['response_status'],
);
const AUDIT_COLUMNS = columns(
  [
    'id',
    'occurred_at',
    'actor',
    'actor_name',
    'action',
    'target_type',
    'target_id',
    'workspace_id',
    'request_id',
    'details',
    'seq',
    'prev_hash',
    'hash',
  ],
  ['seq'],
);
const TOMBSTONE_COLUMNS = columns(['workspace_id', 'subject_hash', 'created_at']);

/** Final statuses by weight; open ones wait for an operator (approval, corrected values). */
function status(type: string, ageDays: number, random: () => number): string {
  const roll = random();
  const openShare = ageDays > 30 ? 0.02 : 0.1;
  if (roll < openShare) return type === 'correction' ? 'action_required' : 'pending_approval';
  if (roll < openShare + 0.02) return 'rejected';
  if (roll < openShare + 0.03) return 'canceled';
  if (roll < openShare + 0.035) return 'failed';
  return 'completed';
}

/** One request row: deletions name former GitHub accounts (their subjects are gone), others a living subject. */
function requestRow(plan: SeedPlan, i: number, random: () => number, now: number): NewRequestRow {
  const created = now - plan.historyDays * DAY_MS + Math.floor((i / plan.privacyRequests) * plan.historyDays * DAY_MS);
  const type = TYPES[pick(random, TYPES.length)] as string;
  const k = pick(random, plan.subjects);
  const [provider, subjectId] =
    type === 'deletion' ? ['github', String(9_000_000 + i)] : random() < 0.7 ? ['okta', `u${k}`] : ['github', githubAccountOf(k)];
  const st = status(type, (now - created) / DAY_MS, random);
  const final = !['pending_approval', 'action_required'].includes(st);
  const done = Math.min(now - 1000, created + pick(random, 3 * DAY_MS));
  return {
    id: pastId('pr', created, random),
    workspace_id: workspaceOfSubject(plan, k),
    request_type: type,
    scope: '["user"]',
    subject_provider: provider,
    subject_id: subjectId,
    client_request_id: `seed-${i}`,
    intake_ref: `seed://requests/${i}`,
    regulation: 'gdpr',
    status: st,
    status_reason: st === 'rejected' || st === 'canceled' ? 'seeded' : st === 'failed' ? 'attempt 5 failed: Error' : null,
    received_at: at(created),
    created_at: at(created),
    due_at: at(addCalendarMonths(new Date(created), 1).getTime()),
    extended_due_at: null,
    completed_at: st === 'completed' ? at(done) : null,
    updated_at: at(final ? done : created),
    attempts: st === 'completed' || st === 'failed' ? 1 : 0,
    lease_owner: null,
    lease_expires_at: null,
    next_attempt_at: null,
    filed_by: 'seed',
    related_request_id: null,
    agent: null,
    agent_id: null,
  };
}

function resultRow(row: NewRequestRow): Row | null {
  if (row.status !== 'completed') return null;
  const when = new Date(row.completed_at as string);
  if (row.request_type === 'access' || row.request_type === 'export') {
    const request = { ...row, scope: ['user'] };
    const empty = { subject: null, linked: [], accounts: [], identityEvents: [], changeEvents: [], requests: [], results: [] };
    return [row.id, JSON.stringify(buildExportPackage(request, empty, when)), null, row.completed_at];
  }
  const report =
    row.request_type === 'deletion'
      ? buildErasureReport(categoriesInScope(['user']), zeroCounts())
      : { format: 'correction-report/1', corrected: ['name'] };
  return [row.id, null, JSON.stringify(report), row.completed_at];
}

/** Appends audit entries to the chain; `head` moves forward. */
function chained(
  head: { seq: number; hash: string },
  entries: Omit<Parameters<typeof chainHash>[1], 'seq'>[],
  random: () => number,
): Row[] {
  return entries.map((entry) => {
    const fields = { ...entry, seq: head.seq + 1 };
    const hash = chainHash(head.hash, fields);
    const row: Row = [
      pastId('aud', Date.parse(entry.occurred_at), random),
      fields.occurred_at,
      fields.actor,
      fields.actor_name ?? null,
      fields.action,
      fields.target_type,
      fields.target_id,
      fields.workspace_id,
      fields.request_id ?? null,
      fields.details,
      fields.seq,
      head.hash,
      hash,
    ];
    head.seq = fields.seq;
    head.hash = hash;
    return row;
  });
}

function auditEntries(row: NewRequestRow, principalId: string) {
  // As the service writes them since 2026-11-24: the actor's name (here its id) and the request, both hashed.
  const target = { target_type: 'privacy_request', target_id: row.id, workspace_id: row.workspace_id, request_id: row.id };
  const created = {
    ...target,
    occurred_at: row.created_at,
    actor: principalId,
    actor_name: principalId,
    action: 'privacy_request.created',
  };
  const entries = [{ ...created, details: JSON.stringify({ request_type: row.request_type, status: 'queued' }) }];
  if (row.status === 'completed' || row.status === 'failed')
    entries.push({
      ...target,
      occurred_at: row.updated_at,
      actor: 'worker',
      actor_name: 'worker',
      action: `privacy_request.${row.status}`,
      details: '{"attempt":1}',
    });
  else if (row.status === 'rejected' || row.status === 'canceled')
    entries.push({
      ...target,
      occurred_at: row.updated_at,
      actor: 'operator',
      actor_name: 'operator',
      action: `privacy_request.${row.status}`,
      details: '{"reason":"seeded"}',
    });
  return entries;
}

/**
 * Seeds `plan.privacyRequests` requests (and results, idempotency records, tombstones, audit
 * entries). `head` is the audit chain head before seeding; returns the new head to store.
 */
export async function seedRequests(
  writer: BulkWriter,
  plan: SeedPlan,
  deps: { principalId: string; pseudonymKey: string; head: { seq: number; hash: string } },
  random: () => number,
  now: number,
): Promise<{ seq: number; hash: string }> {
  const head = { ...deps.head };
  for (let start = 0; start < plan.privacyRequests; start += BATCH) {
    const requests: Row[] = [];
    const results: Row[] = [];
    const idempotency: Row[] = [];
    const tombstones: Row[] = [];
    const audit: Row[] = [];
    for (let i = start; i < Math.min(plan.privacyRequests, start + BATCH); i++) {
      const row = requestRow(plan, i, random, now);
      requests.push(REQUEST_FIELDS.map((f) => row[f]));
      const result = resultRow(row);
      if (result) results.push(result);
      const created = Date.parse(row.created_at);
      if (created > now - IDEMPOTENCY_TTL_MS) {
        const body = JSON.stringify({ ...toResource(row), status: 'queued', completed_at: null });
        idempotency.push([
          deps.principalId,
          `seed-key-${i}`,
          hex(random, 64),
          'completed',
          202,
          requestLocation(row.id),
          body,
          row.created_at,
          at(created + IDEMPOTENCY_TTL_MS),
        ]);
      }
      if (row.request_type === 'deletion' && row.status === 'completed')
        tombstones.push([row.workspace_id, accountPseudonym(deps.pseudonymKey, 'github', row.subject_id), row.completed_at]);
      audit.push(...chained(head, auditEntries(row, deps.principalId), random));
    }
    await writer.insert('privacy_requests', REQUEST_COLUMNS, requests);
    await writer.insert('request_results', RESULT_COLUMNS, results);
    await writer.insert('idempotency_records', IDEMPOTENCY_COLUMNS, idempotency);
    await writer.insert('tombstones', TOMBSTONE_COLUMNS, tombstones);
    await writer.insert('audit_events', AUDIT_COLUMNS, audit);
  }
  return head;
}
