/**
 * The console's pure pieces of the officer's whole day (PRODUCT §2.21): the bulk preview (each
 * request's new due date or why it will be refused), which intake references become links, and
 * the CSV's `days_left`, and the warnings a database's Test or Preview may carry.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PrivacyRequest } from '../../console/src/api/types.js';
import { planBulk } from '../../console/src/lib/bulk-plan.js';
import { isWebLink } from '../../console/src/lib/links.js';
import { uncheckedCollections, warnedCollections } from '../../console/src/lib/warnings.js';
import { daysLeft } from '../../src/http/routes/request-csv.js';

const NOW = Date.parse('2026-03-29T09:00:00.000Z');

function request(id: string, fields: Partial<PrivacyRequest>): PrivacyRequest {
  return {
    id,
    status: 'queued',
    request_type: 'access',
    scope: ['user'],
    subject_id: 's',
    subject_provider: 'github',
    workspace_id: 'acme',
    client_request_id: `c-${id}`,
    intake_ref: 'ticket',
    regulation: 'gdpr',
    received_at: '2026-03-02T09:00:00.000Z',
    created_at: '2026-03-02T09:00:00.000Z',
    due_at: '2026-04-02T09:00:00.000Z',
    extended_due_at: null,
    completed_at: null,
    status_reason: null,
    related_request_id: null,
    agent: null,
    assignee: null,
    links: { self: `/api/v1/privacy/requests/${id}` },
    ...fields,
  };
}

describe('console: the bulk preview', () => {
  const open = request('pr_open', {});
  const extended = request('pr_ext', { extended_due_at: '2026-06-02T09:00:00.000Z' });
  const late = request('pr_late', { received_at: '2026-02-01T00:00:00.000Z', due_at: '2026-03-01T00:00:00.000Z' });
  const done = request('pr_done', { status: 'completed', completed_at: '2026-03-10T00:00:00.000Z' });
  const pending = request('pr_pending', { status: 'pending_approval' });

  it('names the new binding due date of each extension, and why the others will be refused', () => {
    const plan = planBulk('extend', [open, extended, late, done], 'officer', NOW);
    assert.deepEqual(
      plan.map((p) => p.becomes),
      ['queued', null, null, null],
    );
    // GDPR: one month from receipt, then two more (Art. 12(3)).
    assert.match(plan[0]!.note, /^due 2 Jun 2026, 09:00 UTC \(now 2 Apr 2026, 09:00 UTC\)$/);
    assert.match(plan[1]!.note, /extended once already/);
    assert.match(plan[2]!.note, /deadline has passed/);
    assert.equal(plan[3]!.note, 'already completed');
  });

  it('approves only what waits for approval; rejects and cancels anything not final', () => {
    assert.deepEqual(
      planBulk('approve', [pending, open], 'officer', NOW).map((p) => [p.becomes, p.note]),
      [
        ['queued', ''],
        [null, 'not pending approval'],
      ],
    );
    assert.deepEqual(
      planBulk('reject', [open, late, done], 'officer', NOW).map((p) => p.becomes),
      ['rejected', 'rejected', null],
    );
    assert.equal(planBulk('assign', [done], 'Ann Officer', NOW)[0]!.note, 'assigned to Ann Officer');
  });
});

describe('console: intake references as links', () => {
  it('links http and https addresses only', () => {
    assert.equal(isWebLink('https://support.example.com/tickets/4821'), true);
    assert.equal(isWebLink(' http://intranet.example/t?id=1 '), true);
    for (const value of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,x',
      'ticket 9',
      '//evil.example/x',
      'mailto:a@b.c',
      'ftp://x/y',
      'privacy-center',
    ])
      assert.equal(isWebLink(value), false, value);
  });
});

describe("the CSV's days_left", () => {
  const now = new Date(NOW);
  it('counts whole days to the binding due date, negative once overdue, none when final', () => {
    assert.equal(daysLeft({ status: 'queued', due_at: '2026-04-02T09:00:00.000Z', extended_due_at: null }, now), 4);
    assert.equal(daysLeft({ status: 'queued', due_at: '2026-03-30T08:59:59.000Z', extended_due_at: null }, now), 0);
    assert.equal(daysLeft({ status: 'queued', due_at: '2026-03-29T08:00:00.000Z', extended_due_at: null }, now), -1);
    assert.equal(
      daysLeft({ status: 'processing', due_at: '2026-03-01T00:00:00.000Z', extended_due_at: '2026-05-01T09:00:00.000Z' }, now),
      33,
      'the extended date binds',
    );
    assert.equal(daysLeft({ status: 'rejected', due_at: '2026-03-01T00:00:00.000Z', extended_due_at: null }, now), null);
  });
});

describe('console: Test and Preview warnings (PRODUCT §2.17), when the API gives them', () => {
  it('collects cannot_mask and unindexed per collection from whichever list carries them, each field once', () => {
    const test = {
      reachable: true,
      collections: [
        {
          name: 'customer',
          exists: true,
          cannot_mask: [{ field: 'email', reason: 'NOT NULL UNIQUE: a fixed rewrite collides' }],
        },
        { name: 'login', exists: true, unindexed: [{ field: 'customer_id', estimated_rows: 120000 }] },
        { name: 'orders', exists: true },
      ],
    };
    assert.deepEqual(warnedCollections(test), [
      {
        name: 'customer',
        warnings: { cannot_mask: [{ field: 'email', reason: 'NOT NULL UNIQUE: a fixed rewrite collides' }], unindexed: [] },
      },
      { name: 'login', warnings: { cannot_mask: [], unindexed: [{ field: 'customer_id', estimated_rows: 120000 }] } },
    ]);
    const preview = {
      statements: [
        { collection: 'login', sql: 'SELECT …', unindexed: [{ field: 'customer_id' }] },
        { collection: 'login', sql: 'UPDATE …', unindexed: [{ field: 'customer_id' }] },
      ],
    };
    assert.deepEqual(warnedCollections(preview), [
      { name: 'login', warnings: { cannot_mask: [], unindexed: [{ field: 'customer_id' }] } },
    ]);
    assert.deepEqual(
      warnedCollections({ reachable: true, collections: [{ name: 'a', exists: true }] }),
      [],
      'none before the API names them',
    );
  });

  it('names the collections whose checks could not be made (null lists): not checked, never fine', () => {
    const unreachable = {
      reachable: false,
      collections: [
        { name: 'customer', exists: false, cannot_mask: null, unindexed: null },
        { name: 'orders', exists: false, cannot_mask: null, unindexed: null },
      ],
    };
    assert.deepEqual(uncheckedCollections(unreachable), ['customer', 'orders']);
    assert.deepEqual(warnedCollections(unreachable), [], 'no warning is made up');
    const partly = {
      reachable: true,
      collections: [
        { name: 'customer', exists: true, cannot_mask: [], unindexed: [] },
        { name: 'login', exists: true, cannot_mask: null, unindexed: [] },
      ],
    };
    assert.deepEqual(uncheckedCollections(partly), ['login']);
    assert.deepEqual(uncheckedCollections({ reachable: true, collections: [{ name: 'a', exists: true }] }), []);
  });
});
