/**
 * The Exercise Status object (DRP 1.0 §3.03) from the request's state, row by row of PRODUCT
 * §2.19's mapping table, and "has it changed" for status callbacks.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { DrpStatusObject } from '../../src/modules/drp/drp.types.js';
import {
  drpStatusObject,
  FAILED_DETAILS,
  NO_MATCH_DETAILS,
  REVIEWING_DETAILS,
  statusObjectChanged,
  type DrpPrivacyRequestState,
  type DrpRequestState,
  type DrpSubjectState,
} from '../../src/modules/drp/status-object.fns.js';

const NOW = new Date('2026-04-01T12:00:00.000Z');
const RECEIVED = '2026-03-02T10:00:01.234Z';
const DUE = '2026-04-16T10:00:01.234Z';
const EXTENDED = '2026-05-31T10:00:01.234Z';
const base = { requestId: 'c789ff35-7644-4ceb-9981-4b35c264aac3', agentRequestId: null, receivedAt: RECEIVED, revoked: false };
const state = (subject: DrpSubjectState, extra: Partial<DrpRequestState> = {}): DrpRequestState => ({
  ...base,
  subject,
  ...extra,
});
const request = (fields: Partial<DrpPrivacyRequestState>): DrpSubjectState => ({
  kind: 'privacy_request',
  requestType: 'deletion',
  status: 'queued',
  dueAt: DUE,
  extendedDueAt: null,
  extensionReason: null,
  nothingFound: false,
  rejection: null,
  cancelReason: null,
  resultsUrl: null,
  packageExpiresAt: null,
  ...fields,
});
const object = (subject: DrpSubjectState, extra: Partial<DrpRequestState> = {}) => drpStatusObject(state(subject, extra), NOW);
const head = { request_id: base.requestId };

describe("PRODUCT §2.19's status mapping, row by row", () => {
  test('not yet filed, waiting for the code → in_progress/need_user_verification + user_verification_url + expires_at', () => {
    const url = 'https://privacy.example/privacy-center/ws_1/agent-requests/c789ff35/verify?token=t';
    assert.deepEqual(
      object({
        kind: 'awaiting_user_verification',
        dueAt: DUE,
        userVerificationUrl: url,
        verificationExpiresAt: '2026-03-16T10:00:01.234Z',
      }),
      {
        ...head,
        status: 'in_progress',
        reason: 'need_user_verification',
        received_at: RECEIVED,
        expected_by: DUE,
        user_verification_url: url,
        expires_at: '2026-03-16T10:00:01.234Z',
      },
    );
  });

  test('pending_approval → open', () => {
    assert.deepEqual(object(request({ status: 'pending_approval' })), {
      ...head,
      status: 'open',
      received_at: RECEIVED,
      expected_by: DUE,
    });
  });

  for (const status of ['queued', 'processing'] as const) {
    test(`${status} → in_progress`, () => {
      assert.deepEqual(object(request({ status })), { ...head, status: 'in_progress', received_at: RECEIVED, expected_by: DUE });
    });
  }

  test('action_required → in_progress, "The business is reviewing this request."', () => {
    assert.deepEqual(object(request({ status: 'action_required' })), {
      ...head,
      status: 'in_progress',
      received_at: RECEIVED,
      expected_by: DUE,
      processing_details: REVIEWING_DETAILS,
    });
    assert.equal(REVIEWING_DETAILS, 'The business is reviewing this request.');
  });

  test('failed → in_progress (the business still owes the answer), "Delayed by a processing error …"', () => {
    assert.deepEqual(object(request({ status: 'failed' })).processing_details, FAILED_DETAILS);
    assert.equal(object(request({ status: 'failed' })).status, 'in_progress');
    assert.equal(FAILED_DETAILS, 'Delayed by a processing error the business is resolving.');
  });

  test('extended (any open state) → as above, expected_by = extended_due_at, the extension reason as processing_details', () => {
    for (const [status, drp] of [
      ['pending_approval', 'open'],
      ['queued', 'in_progress'],
      ['processing', 'in_progress'],
      ['action_required', 'in_progress'],
      ['failed', 'in_progress'],
    ] as const) {
      assert.deepEqual(
        object(request({ status, extendedDueAt: EXTENDED, extensionReason: 'Many systems hold data of this person.' })),
        {
          ...head,
          status: drp,
          received_at: RECEIVED,
          expected_by: EXTENDED,
          processing_details: 'Many systems hold data of this person.',
        },
        status,
      );
    }
  });

  test('completed access → fulfilled + results_url + expires_at (the package expiry)', () => {
    const results = 'https://privacy.example/privacy-center/ws_1/status/pr_1?token=t';
    assert.deepEqual(
      object(
        request({
          requestType: 'access',
          status: 'completed',
          resultsUrl: results,
          packageExpiresAt: '2026-05-01T10:00:00.000Z',
        }),
      ),
      {
        ...head,
        status: 'fulfilled',
        received_at: RECEIVED,
        expected_by: DUE,
        results_url: results,
        expires_at: '2026-05-01T10:00:00.000Z',
      },
    );
  });

  test('completed deletion, opt-out applied → fulfilled', () => {
    assert.deepEqual(object(request({ status: 'completed' })), {
      ...head,
      status: 'fulfilled',
      received_at: RECEIVED,
      expected_by: DUE,
    });
    assert.deepEqual(object({ kind: 'opt_out', status: 'completed', dueAt: DUE, cancelReason: null }), {
      ...head,
      status: 'fulfilled',
      received_at: RECEIVED,
      expected_by: DUE,
    });
  });

  test('completed with nothing found → denied/no_match, "No personal data matching this identity is held."', () => {
    for (const requestType of ['access', 'deletion'] as const) {
      assert.deepEqual(
        object(request({ requestType, status: 'completed', nothingFound: true, resultsUrl: 'https://x.example/s' })),
        {
          ...head,
          status: 'denied',
          reason: 'no_match',
          received_at: RECEIVED,
          expected_by: DUE,
          processing_details: NO_MATCH_DETAILS,
        },
      );
    }
    assert.equal(NO_MATCH_DETAILS, 'No personal data matching this identity is held.');
  });

  test("rejected → denied / the reject body's drp_reason (default other), the reject reason as processing_details", () => {
    assert.deepEqual(
      object(
        request({ status: 'rejected', rejection: { reason: 'Signed permission missing.', drpReason: 'insuf_verification' } }),
      ),
      {
        ...head,
        status: 'denied',
        reason: 'insuf_verification',
        received_at: RECEIVED,
        expected_by: DUE,
        processing_details: 'Signed permission missing.',
      },
    );
    assert.equal(object(request({ status: 'rejected', rejection: { reason: 'No.', drpReason: null } })).reason, 'other');
  });

  test("canceled by the agent's revoke → revoked", () => {
    assert.deepEqual(
      object(request({ status: 'canceled', cancelReason: 'Revoked by the authorized agent: x' }), { revoked: true }),
      {
        ...head,
        status: 'revoked',
        received_at: RECEIVED,
        expected_by: DUE,
      },
    );
  });

  test('canceled by an operator → denied/other with the cancel reason', () => {
    assert.deepEqual(object(request({ status: 'canceled', cancelReason: 'Duplicate of an earlier request.' })), {
      ...head,
      status: 'denied',
      reason: 'other',
      received_at: RECEIVED,
      expected_by: DUE,
      processing_details: 'Duplicate of an earlier request.',
    });
  });

  test('fulfilled access after expires_at → expired (no results_url any more)', () => {
    const expired = object(
      request({
        requestType: 'access',
        status: 'completed',
        resultsUrl: 'https://x.example/s',
        packageExpiresAt: '2026-04-01T12:00:00.000Z',
      }),
    );
    assert.deepEqual(expired, {
      ...head,
      status: 'expired',
      received_at: RECEIVED,
      expected_by: DUE,
      expires_at: '2026-04-01T12:00:00.000Z',
    });
    const before = object(
      request({
        requestType: 'access',
        status: 'completed',
        resultsUrl: 'https://x.example/s',
        packageExpiresAt: '2026-04-01T12:00:00.001Z',
      }),
    );
    assert.equal(before.status, 'fulfilled');
  });
});

describe('states the table implies', () => {
  test('denied without filing (claim_not_covered, insuf_verification) and fulfilled without filing (opt-in, nothing to withdraw)', () => {
    assert.deepEqual(
      object({
        kind: 'denied_without_filing',
        reason: 'claim_not_covered',
        processingDetails: 'This business takes these DRP actions: access.',
        dueAt: RECEIVED,
      }),
      {
        ...head,
        status: 'denied',
        reason: 'claim_not_covered',
        received_at: RECEIVED,
        expected_by: RECEIVED,
        processing_details: 'This business takes these DRP actions: access.',
      },
    );
    assert.deepEqual(object({ kind: 'fulfilled_without_filing', dueAt: RECEIVED }), {
      ...head,
      status: 'fulfilled',
      received_at: RECEIVED,
      expected_by: RECEIVED,
    });
  });

  test('revoked while waiting for the code → revoked; opt-out: queued → in_progress, canceled by revoke/operator', () => {
    const waiting: DrpSubjectState = {
      kind: 'awaiting_user_verification',
      dueAt: DUE,
      userVerificationUrl: 'https://v.example',
      verificationExpiresAt: DUE,
    };
    assert.equal(object(waiting, { revoked: true }).status, 'revoked');
    assert.equal(object(waiting, { revoked: true }).user_verification_url, undefined);
    assert.equal(object({ kind: 'opt_out', status: 'queued', dueAt: DUE, cancelReason: null }).status, 'in_progress');
    assert.equal(
      object({ kind: 'opt_out', status: 'canceled', dueAt: DUE, cancelReason: null }, { revoked: true }).status,
      'revoked',
    );
    assert.deepEqual(object({ kind: 'opt_out', status: 'canceled', dueAt: DUE, cancelReason: 'Filed in error.' }), {
      ...head,
      status: 'denied',
      reason: 'other',
      received_at: RECEIVED,
      expected_by: DUE,
      processing_details: 'Filed in error.',
    });
  });

  test('agent_request_id comes back when the exercise had one; absent fields are never null', () => {
    const withId = object(request({}), { agentRequestId: 'ar-77' });
    assert.equal(withId.agent_request_id, 'ar-77');
    const all = [
      object(request({ status: 'rejected', rejection: null })),
      object(request({ status: 'canceled' })),
      object(request({ requestType: 'access', status: 'completed' })),
    ];
    for (const o of all) assert.ok(!JSON.stringify(o).includes('null'), JSON.stringify(o));
    assert.deepEqual(Object.keys(object(request({ status: 'canceled' }))), [
      'request_id',
      'status',
      'reason',
      'received_at',
      'expected_by',
    ]);
  });

  test("every member is one of DRP §3.03's, and DRP's own example uses only members this object knows", () => {
    const examples = JSON.parse(readFileSync(new URL('../fixtures/drp/drp-1.0-examples.json', import.meta.url), 'utf8')) as {
      examples: { name: string; text: string }[];
    };
    const drpExample = JSON.parse(examples.examples.find((e) => e.name === 'status_object')?.text ?? '') as Record<
      string,
      unknown
    >;
    const ours = object(
      { kind: 'awaiting_user_verification', dueAt: DUE, userVerificationUrl: 'https://v.example', verificationExpiresAt: DUE },
      { agentRequestId: 'foo' },
    );
    const known = new Set([
      'request_id',
      'agent_request_id',
      'status',
      'reason',
      'received_at',
      'expected_by',
      'processing_details',
      'user_verification_url',
      'results_url',
      'expires_at',
    ]);
    for (const key of Object.keys(drpExample)) assert.ok(known.has(key), `DRP's example member ${key}`);
    for (const key of Object.keys(ours)) assert.ok(known.has(key), key);
    assert.equal(drpExample.status, ours.status);
    assert.equal(drpExample.reason, ours.reason);
  });
});

describe('statusObjectChanged: a change is any difference from the last one answered or sent', () => {
  const queued = object(request({ status: 'queued' }));
  test('queued → processing is no change (both in_progress); approval, extension, completion, rejection, cancel, revoke are', () => {
    assert.equal(statusObjectChanged(queued, object(request({ status: 'processing' }))), false);
    const open = object(request({ status: 'pending_approval' }));
    const changes: [string, DrpStatusObject, DrpStatusObject][] = [
      ['approval', open, queued],
      ['extension', queued, object(request({ status: 'queued', extendedDueAt: EXTENDED, extensionReason: 'r' }))],
      ['completion', queued, object(request({ status: 'completed' }))],
      ['rejection', queued, object(request({ status: 'rejected', rejection: { reason: 'r', drpReason: null } }))],
      ['cancel', queued, object(request({ status: 'canceled', cancelReason: 'c' }))],
      ['revoke', queued, object(request({ status: 'canceled', cancelReason: 'c' }), { revoked: true })],
    ];
    for (const [name, before, after] of changes) assert.equal(statusObjectChanged(before, after), true, name);
  });
  test('a member only one side has is a change; nothing sent yet is a change', () => {
    const { processing_details: _dropped, ...without } = object(request({ status: 'action_required' }));
    assert.equal(statusObjectChanged(without as DrpStatusObject, object(request({ status: 'action_required' }))), true);
    assert.equal(statusObjectChanged(object(request({ status: 'action_required' })), without as DrpStatusObject), true);
    assert.equal(statusObjectChanged(null, queued), true);
    assert.equal(statusObjectChanged(queued, { ...queued }), false);
  });
});
