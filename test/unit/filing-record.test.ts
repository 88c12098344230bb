/**
 * The one format of a filing's Idempotency-Key record (src/http/replay/filing-record.ts): what a
 * replay decodes is what was encoded, and records stored by earlier releases (the same bytes)
 * decode to the same outcome.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filingRecordCodec } from '../../src/http/replay/filing-record.js';
import type { PrivacyRequestResource } from '../../src/modules/privacy-requests/privacy-request.types.js';

const request: PrivacyRequestResource = {
  id: 'pr_01JD0000000000000000000000',
  status: 'queued',
  request_type: 'access',
  scope: ['user'],
  subject_id: 'u-1',
  subject_provider: 'okta',
  workspace_id: 'acme',
  client_request_id: 'client-0001',
  intake_ref: 'ticket 1',
  regulation: 'GDPR',
  received_at: '2026-11-20T00:00:00.000Z',
  created_at: '2026-11-24T00:00:00.000Z',
  due_at: '2026-12-24T00:00:00.000Z',
  extended_due_at: null,
  completed_at: null,
  status_reason: null,
  related_request_id: null,
  agent: null,
  assignee: null,
  links: { self: '/api/v1/privacy/requests/pr_01JD0000000000000000000000' },
};

describe('filing record codec', () => {
  it('keeps a filed request as the 202 answer earlier releases stored, and reads it back unchanged', () => {
    const stored = filingRecordCodec.encode({ kind: 'filed', request });
    assert.deepEqual(stored, {
      status: 202,
      location: '/api/v1/privacy/requests/pr_01JD0000000000000000000000',
      body: JSON.stringify(request),
    });
    assert.deepEqual(filingRecordCodec.decode(stored), { kind: 'filed', request });
  });

  it('reads an answer stored before related_request_id existed as not a repeat (null)', () => {
    const { related_request_id: _absent, ...before } = request;
    const stored = { status: 202, location: request.links.self, body: JSON.stringify(before) };
    assert.deepEqual(filingRecordCodec.decode(stored), { kind: 'filed', request });
  });

  it('keeps a repeat filed as such: its related request is replayed too', () => {
    const repeat = { ...request, status: 'action_required', status_reason: 'repeat_request', related_request_id: 'pr_older' };
    const stored = filingRecordCodec.encode({ kind: 'filed', request: repeat });
    assert.deepEqual(filingRecordCodec.decode(stored), { kind: 'filed', request: repeat });
  });

  it('keeps a taken client_request_id as the 409 with the existing request Location', () => {
    const stored = filingRecordCodec.encode({ kind: 'client_request_id_taken', existingId: 'pr_existing' });
    assert.deepEqual(stored, { status: 409, location: '/api/v1/privacy/requests/pr_existing', body: '' });
    assert.deepEqual(filingRecordCodec.decode(stored), { kind: 'client_request_id_taken', existingId: 'pr_existing' });
  });

  it('reads a 409 without a Location (the existing request is gone) as a conflict with no id', () => {
    const stored = filingRecordCodec.encode({ kind: 'client_request_id_taken', existingId: null });
    assert.equal(stored.location, null);
    assert.deepEqual(filingRecordCodec.decode(stored), { kind: 'client_request_id_taken', existingId: null });
  });
});
