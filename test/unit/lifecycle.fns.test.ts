/**
 * The request lifecycle (PRODUCT.md §2.3, §2.9): which operator action is allowed in which status
 * (`statusAfter`, null = 409, with each type's traits), the retry backoff of failed attempts
 * (`retryDelayMs`), which changes are announced, and how a request's tasks decide its end.
 */
import assert from 'node:assert/strict';
import { REQUEST_HANDLERS } from '../../src/workflows/request-types/request-handlers.js';
import { describe, test } from 'node:test';
import {
  awaitsIdentityReview,
  decideFromTasks,
  extensionTooLate,
  isAnnounced,
  namedSystems,
  type OperatorAction,
  REPEAT_REQUEST,
  repeatWindowStart,
  retryDelayMs,
  stateAtFiling,
  statusAfter,
  statusAfterProceeding,
  taskFoundSomething,
} from '../../src/modules/privacy-requests/lifecycle/lifecycle.fns.js';
import { REQUEST_TYPE_TRAITS, traitsOf, UnknownRequestTypeError } from '../../src/modules/privacy-requests/request-types.js';
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

/** `statusAfter` with the traits of the request's type, as the operator actions call it. */
const after = (action: OperatorAction, r: ReturnType<typeof request>) => statusAfter(action, r, traitsOf(r.request_type));

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
            const got = after(action, request(status, type, extended ? '2026-03-01T00:00:00.000Z' : null));
            assert.equal(got, expected(action, status, type, extended), `${action} ${status} ${type} extended=${extended}`);
          }
        }
      });
    }
  }
});

describe('statusAfter: the rules, one by one', () => {
  test('approve: only pending_approval → queued', () => {
    assert.equal(after('approve', request('pending_approval')), 'queued');
    for (const status of ['queued', 'processing', 'action_required', ...FINAL]) {
      assert.equal(after('approve', request(status)), null, status);
    }
  });

  test('reject and cancel: from every non-final status, never from a final one', () => {
    for (const status of OPEN) {
      assert.equal(after('reject', request(status)), 'rejected', status);
      assert.equal(after('cancel', request(status)), 'canceled', status);
    }
    for (const status of FINAL) {
      assert.equal(after('reject', request(status)), null, status);
      assert.equal(after('cancel', request(status)), null, status);
    }
  });

  test('reject or cancel twice: the second is refused (the first made the request final)', () => {
    const rejected = after('reject', request('queued'));
    assert.equal(after('reject', request(rejected as string)), null);
    const canceled = after('cancel', request('pending_approval'));
    assert.equal(after('cancel', request(canceled as string)), null);
  });

  test('extend: keeps the status, once, and not on a final request', () => {
    for (const status of OPEN) {
      assert.equal(after('extend', request(status)), status);
      assert.equal(after('extend', request(status, 'access', '2026-04-28T10:00:00.000Z')), null);
    }
    for (const status of FINAL) assert.equal(after('extend', request(status)), null);
  });

  test('extensionTooLate: in time up to the due instant, too late a millisecond after (PRODUCT §2.13)', () => {
    const r = { due_at: '2026-02-28T10:00:00.000Z', extended_due_at: null };
    assert.equal(extensionTooLate(r, new Date('2026-02-01T00:00:00.000Z')), false);
    assert.equal(extensionTooLate(r, new Date('2026-02-28T10:00:00.000Z')), false);
    assert.equal(extensionTooLate(r, new Date('2026-02-28T10:00:00.001Z')), true);
    assert.equal(extensionTooLate(r, new Date('2026-03-06T10:00:00.000Z')), true);
  });

  test('corrections: only a correction request in action_required → completed', () => {
    assert.equal(after('corrections', request('action_required', 'correction')), 'completed');
    assert.equal(after('corrections', request('action_required', 'correction', '2026-04-28T10:00:00.000Z')), 'completed');
    for (const type of ['access', 'export', 'deletion']) {
      assert.equal(after('corrections', request('action_required', type)), null, type);
    }
    for (const status of REQUEST_STATUSES.filter((s) => s !== 'action_required')) {
      assert.equal(after('corrections', request(status, 'correction')), null, status);
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

describe('request type traits', () => {
  test('every request type says what it produces, and only correction takes corrections, only deletion erases', () => {
    assert.deepEqual(Object.keys(REQUEST_TYPE_TRAITS).sort(), [...REQUEST_TYPES].sort());
    const by = (pick: (t: (typeof REQUEST_TYPE_TRAITS)['access']) => unknown) =>
      Object.fromEntries(REQUEST_TYPES.map((type) => [type, pick(REQUEST_TYPE_TRAITS[type])]));
    assert.deepEqual(
      by((t) => t.result),
      { access: 'package', export: 'package', correction: 'report', deletion: 'report' },
    );
    assert.deepEqual(
      by((t) => t.takesCorrections),
      { access: false, export: false, correction: true, deletion: false },
    );
    assert.deepEqual(
      by((t) => t.erases),
      { access: false, export: false, correction: false, deletion: true },
    );
    assert.equal(REQUEST_HANDLERS.deletion.erases, true);
    assert.equal(REQUEST_HANDLERS.access.readOnly, true);
  });

  test('a stored type that is none of them is refused by name', () => {
    assert.throws(() => traitsOf('erase'), UnknownRequestTypeError);
  });
});

describe('isAnnounced: which status changes send privacy_request.status_changed', () => {
  test('every change but none and the worker retry (processing → queued)', () => {
    assert.equal(isAnnounced('queued', 'queued'), false);
    assert.equal(isAnnounced('processing', 'queued'), false);
    assert.equal(isAnnounced('pending_approval', 'queued'), true);
    assert.equal(isAnnounced('processing', 'completed'), true);
    assert.equal(isAnnounced('processing', 'failed'), true);
    assert.equal(isAnnounced('action_required', 'canceled'), true);
  });
});

describe('decideFromTasks: the request end from its tasks statuses (PRODUCT §2.9)', () => {
  const t = (system_key: string, status: string) => ({ system_key, status });
  test('no task, or every task completed or not applicable: completed', () => {
    assert.deepEqual(decideFromTasks([]), { status: 'completed' });
    assert.deepEqual(decideFromTasks([t('a', 'completed'), t('b', 'not_applicable')]), { status: 'completed' });
  });
  test('pending while any task is pending, naming the pending systems', () => {
    assert.deepEqual(decideFromTasks([t('crm', 'pending'), t('ci', 'failed'), t('bi', 'pending')]), {
      status: 'pending',
      reason: 'waiting for data tasks: bi, crm',
    });
  });
  test('failed naming each failed system once, sorted', () => {
    assert.deepEqual(decideFromTasks([t('zd', 'failed'), t('ci', 'completed'), t('bi', 'failed')]), {
      status: 'failed',
      reason: 'data task failed in: bi, zd',
    });
  });
  test('a reason names at most five systems, then how many more (a request fanned out to 1 000 systems)', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `sys-${String(i).padStart(4, '0')}`);
    const decision = decideFromTasks(keys.map((k) => t(k, 'pending')));
    assert.equal(decision.status, 'pending');
    assert.equal(
      'reason' in decision && decision.reason,
      'waiting for data tasks: sys-0000, sys-0001, sys-0002, sys-0003, sys-0004 and 995 more',
    );
    assert.equal(namedSystems(['b', 'a', 'a']), 'a, b');
  });
});

describe('unmatched identities (PRODUCT §2.13)', () => {
  const done = (result: object) => ({ status: 'completed', result: JSON.stringify(result) });
  test('taskFoundSomething: data, non-zero counts, kept records or a separate delivery found something', () => {
    assert.equal(taskFoundSomething(done({ data: { user: { id: 1 } } })), true);
    assert.equal(taskFoundSomething(done({ data_categories: ['user'] })), true, 'data dropped into the package');
    assert.equal(taskFoundSomething(done({ records: { user: 0, 'user.name': 2 } })), true);
    assert.equal(taskFoundSomething(done({ erased: { user: 1 } })), true);
    assert.equal(taskFoundSomething(done({ kept: [{ category: 'user', reason: 'tax law' }] })), true);
    assert.equal(taskFoundSomething(done({ delivered_separately: true })), true);
    assert.equal(taskFoundSomething(done({ records: { user: 0 }, data: {} })), false, 'all zero, no data');
    assert.equal(taskFoundSomething(done({})), false);
    assert.equal(taskFoundSomething({ status: 'not_applicable', result: JSON.stringify({ records: { user: 3 } }) }), false);
    assert.equal(taskFoundSomething({ status: 'pending', result: null }), false);
  });
  test('awaitsIdentityReview: only when the own step found nothing, no task found anything, and the policy asks', () => {
    const nothing = [done({ records: { user: 0 } })];
    assert.equal(awaitsIdentityReview(0, nothing, true), true);
    assert.equal(awaitsIdentityReview(0, [], true), true);
    assert.equal(awaitsIdentityReview(0, nothing, false), false, 'confirm_no_data: false');
    assert.equal(awaitsIdentityReview(1, nothing, true), false, 'found here');
    assert.equal(awaitsIdentityReview(null, nothing, true), false, 'not said: taken as found');
    assert.equal(awaitsIdentityReview(0, [...nothing, done({ records: { user: 1 } })], true), false, 'a system found it');
  });
});

describe('repeated requests (PRODUCT §2.20)', () => {
  test('stateAtFiling: a repeat waits whatever the approval rule; otherwise pending_approval or queued', () => {
    for (const requireApproval of [false, true]) {
      assert.deepEqual(stateAtFiling(requireApproval, 'pr_older'), {
        status: 'action_required',
        status_reason: 'repeat_request',
        related_request_id: 'pr_older',
      });
    }
    assert.deepEqual(stateAtFiling(true, null), { status: 'pending_approval', status_reason: null, related_request_id: null });
    assert.deepEqual(stateAtFiling(false, null), { status: 'queued', status_reason: null, related_request_id: null });
  });

  test('statusAfterProceeding: only action_required / repeat_request, to where filing would have sent it', () => {
    const repeat = { status: 'action_required', status_reason: REPEAT_REQUEST };
    assert.equal(statusAfterProceeding(repeat, false), 'queued');
    assert.equal(statusAfterProceeding(repeat, true), 'pending_approval');
    for (const status of REQUEST_STATUSES) {
      for (const reason of [null, 'identity_unmatched', 'controller_unnamed', 'waiting for corrected values', 'seeded']) {
        assert.equal(statusAfterProceeding({ status, status_reason: reason }, false), null, `${status} ${reason}`);
      }
      if (status !== 'action_required')
        assert.equal(
          statusAfterProceeding({ status, status_reason: REPEAT_REQUEST }, false),
          null,
          `${status} (a reason kept after it ended)`,
        );
    }
  });

  test('corrections are refused while a correction waits as a repeat; reject, cancel and extend are not', () => {
    const waiting = { status: 'action_required', extended_due_at: null, status_reason: REPEAT_REQUEST };
    const traits = traitsOf('correction');
    assert.equal(statusAfter('corrections', waiting, traits), null);
    assert.equal(statusAfter('corrections', { ...waiting, status_reason: 'waiting for corrected values' }, traits), 'completed');
    assert.equal(statusAfter('reject', waiting, traits), 'rejected');
    assert.equal(statusAfter('cancel', waiting, traits), 'canceled');
    assert.equal(statusAfter('extend', waiting, traits), 'action_required');
    assert.equal(statusAfter('approve', waiting, traits), null, 'proceed, not approve');
  });

  test('repeatWindowStart: whole 24-hour days before now, RFC 3339 UTC', () => {
    const now = new Date('2026-03-31T10:15:00.000Z');
    assert.equal(repeatWindowStart(now, 30), '2026-03-01T10:15:00.000Z');
    assert.equal(repeatWindowStart(now, 1), '2026-03-30T10:15:00.000Z');
    assert.equal(repeatWindowStart(now, 365), '2025-03-31T10:15:00.000Z');
  });
});
