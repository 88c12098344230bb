/**
 * A DRP record read with what it filed → the status object (PRODUCT §2.19 "Status object"): the
 * rows of a completed request that the joined row and the caller's facts decide: `fulfilled` with
 * `results_url` and `expires_at`, `expired`, `denied`/`no_match`; when a results link is due; the
 * link's derived token.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nothingFoundAsks, resultsLinkDue, statusObjectOfRow } from '../../src/modules/drp/drp-record.fns.js';
import type { DrpRequestListRow } from '../../src/modules/drp/drp-request.repository.js';
import { resultsLinkToken, sentStatusObject, statusLinkUrl, storedStatusObject } from '../../src/modules/drp/results-link.fns.js';
import { NO_MATCH_DETAILS } from '../../src/modules/drp/status-object.fns.js';

const NOW = new Date('2026-12-07T12:00:00.000Z');
const EXPIRES = '2027-01-06T12:00:00.000Z';
const URL_ = 'https://privacy.example/privacy-center/acme/status/pr_1?token=t';

function row(fields: Partial<DrpRequestListRow> = {}): DrpRequestListRow {
  return {
    request_id: 'c789ff35-7644-4ceb-9981-4b35c264aac3',
    workspace_id: 'acme',
    agent_ref: 'agt_1',
    agent_id: 'test-agent-01',
    agent_request_id: 'ar-1',
    exercise: 'access',
    regime: 'ccpa',
    status: 'in_progress',
    reason: null,
    processing_details: null,
    due_at: '2026-12-01T10:00:00.000Z',
    received_at: '2026-11-20T10:00:00.000Z',
    privacy_request_id: 'pr_1',
    opt_out_id: null,
    status_callback: null,
    kept: '{}',
    revoked: 0,
    last_status: null,
    pr_request_type: 'access',
    pr_status: 'completed',
    pr_status_reason: null,
    pr_due_at: '2027-01-04T10:00:00.000Z',
    pr_extended_due_at: null,
    pr_subject_found: 1,
    rr_has_package: 1,
    rr_package_expires_at: EXPIRES,
    rr_package_expired_at: null,
    oo_status: null,
    oo_due_at: null,
    extend_details: null,
    reject_details: null,
    ...fields,
  };
}

describe('a completed request, from its joined row', () => {
  test('access with its package: fulfilled + results_url + expires_at (the package expiry)', () => {
    assert.deepEqual(statusObjectOfRow(row(), NOW, { resultsUrl: URL_ }), {
      request_id: 'c789ff35-7644-4ceb-9981-4b35c264aac3',
      agent_request_id: 'ar-1',
      status: 'fulfilled',
      received_at: '2026-11-20T10:00:00.000Z',
      expected_by: '2027-01-04T10:00:00.000Z',
      results_url: URL_,
      expires_at: EXPIRES,
    });
  });

  test('before the sweeper computed the expiry: fulfilled + results_url, no expires_at (not guessed)', () => {
    const object = statusObjectOfRow(row({ rr_package_expires_at: null }), NOW, { resultsUrl: URL_ });
    assert.deepEqual([object.status, object.results_url, 'expires_at' in object], ['fulfilled', URL_, false]);
  });

  test('past the expiry, or deleted by the sweeper, or erased by a later deletion: expired, no results_url', () => {
    const past = statusObjectOfRow(row({ rr_package_expires_at: '2026-12-07T12:00:00.000Z' }), NOW, { resultsUrl: URL_ });
    assert.deepEqual([past.status, past.expires_at, past.results_url], ['expired', '2026-12-07T12:00:00.000Z', undefined]);
    const swept = statusObjectOfRow(
      row({
        rr_has_package: 0,
        rr_package_expires_at: '2026-12-01T00:00:00.000Z',
        rr_package_expired_at: '2026-12-01T00:01:00.000Z',
      }),
      NOW,
    );
    assert.deepEqual([swept.status, swept.expires_at], ['expired', '2026-12-01T00:00:00.000Z']);
    const erased = statusObjectOfRow(row({ rr_has_package: 0, rr_package_expires_at: null }), NOW);
    assert.deepEqual([erased.status, 'expires_at' in erased], ['expired', false]);
  });

  test('nothing found (the caller read it): denied/no_match with the sentence, whatever the type', () => {
    for (const type of ['access', 'deletion'])
      assert.deepEqual(
        (({ status, reason, processing_details, results_url }) => ({ status, reason, processing_details, results_url }))(
          statusObjectOfRow(row({ pr_request_type: type, pr_subject_found: 0 }), NOW, { nothingFound: true }),
        ),
        { status: 'denied', reason: 'no_match', processing_details: NO_MATCH_DETAILS, results_url: undefined },
      );
    assert.equal(NO_MATCH_DETAILS, 'No personal data matching this identity is held.');
  });

  test('a completed deletion: fulfilled, never a link or an expiry', () => {
    const object = statusObjectOfRow(row({ pr_request_type: 'deletion', rr_has_package: 0, rr_package_expires_at: null }), NOW);
    assert.deepEqual([object.status, 'results_url' in object, 'expires_at' in object], ['fulfilled', false, false]);
  });
});

describe('what the caller reads besides the row', () => {
  test('"nothing found" is asked only of a completed request whose own step found nothing', () => {
    assert.equal(nothingFoundAsks(row({ pr_subject_found: 0 })), true);
    assert.equal(nothingFoundAsks(row({ pr_subject_found: 1 })), false);
    assert.equal(nothingFoundAsks(row({ pr_subject_found: null })), false);
    assert.equal(nothingFoundAsks(row({ pr_subject_found: 0, pr_status: 'action_required' })), false);
  });

  test('a results link is due for a completed access with its package there and not expired, something found', () => {
    assert.equal(resultsLinkDue(row(), false, NOW), true);
    assert.equal(resultsLinkDue(row({ rr_package_expires_at: null }), false, NOW), true);
    assert.equal(resultsLinkDue(row(), true, NOW), false, 'nothing found');
    assert.equal(resultsLinkDue(row({ pr_request_type: 'deletion' }), false, NOW), false);
    assert.equal(resultsLinkDue(row({ pr_status: 'processing' }), false, NOW), false);
    assert.equal(resultsLinkDue(row({ rr_has_package: 0 }), false, NOW), false, 'gone');
    assert.equal(resultsLinkDue(row({ rr_package_expires_at: NOW.toISOString() }), false, NOW), false, 'expired at now');
  });

  test("the link's token: derived per request under the key, 43 base64url characters; the URL is the status link", () => {
    const a = resultsLinkToken('k'.repeat(64), 'pr_1');
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(resultsLinkToken('k'.repeat(64), 'pr_1'), a, 'stable: the same object every time');
    assert.notEqual(resultsLinkToken('k'.repeat(64), 'pr_2'), a);
    assert.notEqual(resultsLinkToken('j'.repeat(64), 'pr_1'), a, 'nothing without the key');
    assert.equal(
      statusLinkUrl('https://privacy.example/', 'ac me', 'pr_1', a),
      `https://privacy.example/privacy-center/ac%20me/status/pr_1?token=${a}`,
    );
  });

  test('stored without the token (its SHA-256 instead), sent with it derived again; objects without a link as they are', () => {
    const key = 'k'.repeat(64);
    const token = resultsLinkToken(key, 'pr_01ABC');
    const object = {
      request_id: 'r',
      status: 'fulfilled',
      results_url: statusLinkUrl('https://p.example', 'acme', 'pr_01ABC', token),
    };
    const stored = storedStatusObject(object);
    assert.ok(!stored.results_url.includes(token));
    assert.match(stored.results_url, /^https:\/\/p\.example\/privacy-center\/acme\/status\/pr_01ABC\?token=sha256:[0-9a-f]{64}$/);
    assert.equal(storedStatusObject(object).results_url, stored.results_url, 'one stored form: comparisons still work');
    assert.notEqual(
      storedStatusObject({ ...object, results_url: object.results_url.replace(token, resultsLinkToken(key, 'pr_2')) })
        .results_url,
      stored.results_url,
    );
    assert.deepEqual(sentStatusObject(stored, key), object);
    const plain: { request_id: string; status: string; results_url?: string } = { request_id: 'r', status: 'denied' };
    assert.equal(storedStatusObject(plain), plain);
    assert.equal(sentStatusObject(plain, key), plain);
  });
});
