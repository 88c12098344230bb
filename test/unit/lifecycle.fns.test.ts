/**
 * The request lifecycle (PRODUCT.md §2.3): which operator action is allowed in which status
 * (`statusAfter`, null = 409), and the retry backoff of failed attempts (`retryDelayMs`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type OperatorAction, retryDelayMs, statusAfter } from '../../src/modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { isFinal } from '../../src/modules/request-model/request-model.js';
import { REQUEST_STATUSES, REQUEST_TYPES } from '../../src/modules/request-model/request-model.js';

const FINAL = ['completed', 'failed', 'rejected', 'canceled'];
const OPEN = ['pending_approval', 'queued', 'processing', 'action_required'];
const ACTIONS: readonly OperatorAction[] = ['approve', 'reject', 'cancel', 'extend', 'corrections'];

/** What PRODUCT.md §2.3 allows, written out independently of the implementation. */
function expected(action: OperatorAction, status: string, requestType: string, extended: boolean): string | null {
  const final = FINAL.includes(status);
  switch (action) {
    case 'approve':
      return status === 'pending_approval' ? 'queued' : null;
    case 'reject':
      return final ? null : 'rejected';
    case 'cancel':
      return final ? null : 'canceled';
    case 'extend':
      return final || extended ? null : status;
    case 'corrections':
      return requestType === 'correction' && status === 'action_required' ? 'completed' : null;
  }
}

const request = (status: string, request_type = 'access', extended_due_at: string | null = null) => ({
  status,
  request_type,
  extended_due_at,
});

describe('isFinal', () => {
  test('the statuses are exactly the open and the final ones', () => {
    assert.deepEqual([...REQUEST_STATUSES].sort(), [...OPEN, ...FINAL].sort());
  });
  for (const status of FINAL) test(`${status} is final`, () => assert.equal(isFinal(status), true));
  for (const status of OPEN) test(`${status} is not final`, () => assert.equal(isFinal(status), false));
});

describe('statusAfter: the full table (action × status × type × extended)', () => {
  for (const action of ACTIONS) {
    for (const status of REQUEST_STATUSES) {
      test(`${action} in ${status}`, () => {
        for (const type of REQUEST_TYPES) {
          for (const extended of [false, true]) {
            const got = statusAfter(action, request(status, type, extended ? '2026-03-01T00:00:00.000Z' : null));
            assert.equal(got, expected(action, status, type, extended), `${action} ${status} ${type} extended=${extended}`);
          }
        }
      });
    }
  }
});

describe('statusAfter: the rules, one by one', () => {
  test('approve: only pending_approval → queued', () => {
    assert.equal(statusAfter('approve', request('pending_approval')), 'queued');
    for (const status of ['queued', 'processing', 'action_required', ...FINAL]) {
      assert.equal(statusAfter('approve', request(status)), null, status);
    }
  });

  test('reject and cancel: from every non-final status, never from a final one', () => {
    for (const status of OPEN) {
      assert.equal(statusAfter('reject', request(status)), 'rejected', status);
      assert.equal(statusAfter('cancel', request(status)), 'canceled', status);
    }
    for (const status of FINAL) {
      assert.equal(statusAfter('reject', request(status)), null, status);
      assert.equal(statusAfter('cancel', request(status)), null, status);
    }
  });

  test('reject or cancel twice: the second is refused (the first made the request final)', () => {
    const rejected = statusAfter('reject', request('queued'));
    assert.equal(statusAfter('reject', request(rejected as string)), null);
    const canceled = statusAfter('cancel', request('pending_approval'));
    assert.equal(statusAfter('cancel', request(canceled as string)), null);
  });

  test('extend: keeps the status, once, and not on a final request', () => {
    for (const status of OPEN) {
      assert.equal(statusAfter('extend', request(status)), status);
      assert.equal(statusAfter('extend', request(status, 'access', '2026-04-28T10:00:00.000Z')), null);
    }
    for (const status of FINAL) assert.equal(statusAfter('extend', request(status)), null);
  });

  test('corrections: only a correction request in action_required → completed', () => {
    assert.equal(statusAfter('corrections', request('action_required', 'correction')), 'completed');
    assert.equal(statusAfter('corrections', request('action_required', 'correction', '2026-04-28T10:00:00.000Z')), 'completed');
    for (const type of ['access', 'export', 'deletion']) {
      assert.equal(statusAfter('corrections', request('action_required', type)), null, type);
    }
    for (const status of REQUEST_STATUSES.filter((s) => s !== 'action_required')) {
      assert.equal(statusAfter('corrections', request(status, 'correction')), null, status);
    }
  });
});

describe('retryDelayMs: 2^attempt seconds, at most 5 minutes', () => {
  const table: [number, number][] = [
    [1, 2_000],
    [2, 4_000],
    [3, 8_000],
    [4, 16_000],
    [5, 32_000],
    [6, 64_000],
    [7, 128_000],
    [8, 256_000],
    [9, 300_000],
    [10, 300_000],
    [50, 300_000],
    [100, 300_000],
  ];
  for (const [attempt, ms] of table) test(`attempt ${attempt} → ${ms} ms`, () => assert.equal(retryDelayMs(attempt), ms));

  test('never decreases and never exceeds 300 s', () => {
    let previous = 0;
    for (let attempt = 1; attempt <= 1000; attempt++) {
      const ms = retryDelayMs(attempt);
      assert.ok(Number.isFinite(ms) && ms >= previous && ms <= 300_000, `attempt ${attempt}: ${ms}`);
      previous = ms;
    }
  });
});
