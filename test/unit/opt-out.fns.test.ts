/**
 * Opt-out deadlines and decisions (PRODUCT §2.18): the 15th business day after the day of receipt
 * (Mon–Fri UTC, less the policy's holidays) at the time of receipt for sale_sharing and
 * sensitive_use, one month for direct_marketing; opt-ins only from an operator; preferences
 * `not_set` where none was accepted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCalendarDate } from '../../src/lib/calendar-day.js';
import { addBusinessDays, optOutDueAt } from '../../src/modules/opt-outs/deadline.fns.js';
import {
  expandOptOutStatuses,
  optInSourceProblem,
  optOutStatusAfterTasks,
  preferencesOf,
} from '../../src/modules/opt-outs/opt-out.fns.js';

const at = (iso: string) => new Date(iso);
const due = (kind: Parameters<typeof optOutDueAt>[0], received: string, holidays: string[] = []) =>
  optOutDueAt(kind, at(received), holidays).toISOString();

describe('opt-out deadlines', () => {
  it('counts 15 business days after the day of receipt, over three weekends, keeping the time of day', () => {
    // Friday 4 December 2026: Dec 7–11, 14–18, 21–25 are the 15 business days.
    assert.equal(due('sale_sharing', '2026-12-04T15:30:00.000Z'), '2026-12-25T15:30:00.000Z');
    assert.equal(due('sensitive_use', '2026-12-04T15:30:00.000Z'), '2026-12-25T15:30:00.000Z');
  });

  it('skips a listed holiday that falls on a business day', () => {
    assert.equal(due('sale_sharing', '2026-12-04T15:30:00.000Z', ['2026-12-25']), '2026-12-28T15:30:00.000Z');
    assert.equal(due('sale_sharing', '2026-12-04T15:30:00.000Z', ['2026-12-08', '2026-12-25']), '2026-12-29T15:30:00.000Z');
  });

  it('a holiday on a weekend, or on the day of receipt, changes nothing', () => {
    assert.equal(due('sale_sharing', '2026-12-04T15:30:00.000Z', ['2026-12-12', '2026-12-04']), '2026-12-25T15:30:00.000Z');
  });

  it('a receipt on a Saturday or a Sunday counts from the Monday', () => {
    assert.equal(due('sale_sharing', '2026-12-05T10:00:00.000Z'), '2026-12-25T10:00:00.000Z');
    assert.equal(due('sale_sharing', '2026-12-06T23:59:59.999Z'), '2026-12-25T23:59:59.999Z');
  });

  it('weekdays are UTC weekdays: 23:30 UTC on a Friday is Friday', () => {
    assert.equal(addBusinessDays(at('2026-12-04T23:30:00.000Z'), 1, []).toISOString(), '2026-12-07T23:30:00.000Z');
  });

  it('direct_marketing is one calendar month, whatever the holidays; a missing day becomes the last', () => {
    assert.equal(due('direct_marketing', '2026-12-04T15:30:00.000Z', ['2026-12-25']), '2027-01-04T15:30:00.000Z');
    assert.equal(due('direct_marketing', '2026-01-31T09:30:00.000Z'), '2026-02-28T09:30:00.000Z');
    assert.equal(due('direct_marketing', '2028-01-31T09:30:00.000Z'), '2028-02-29T09:30:00.000Z');
  });

  it('refuses a non-positive count', () => {
    assert.throws(() => addBusinessDays(at('2026-12-04T00:00:00.000Z'), 0, []), RangeError);
  });

  it('knows a real calendar day', () => {
    assert.equal(isCalendarDate('2026-12-25'), true);
    assert.equal(isCalendarDate('2028-02-29'), true);
    assert.equal(isCalendarDate('0050-01-01'), true, 'year 50, not 1950');
    assert.equal(isCalendarDate('0001-01-01'), true);
    assert.equal(isCalendarDate('0000-01-01'), false, 'no year 0');
    for (const bad of ['2026-02-29', '2026-13-01', '2026-12-32', '2026-1-01', '2026-12-25T00:00:00Z', ''])
      assert.equal(isCalendarDate(bad), false, bad);
  });
});

describe('opt-out decisions', () => {
  it('takes an opt_in only from source "api"; an opt_out from every source', () => {
    assert.equal(optInSourceProblem('opt_in', 'api'), null);
    for (const source of ['form', 'gpc', 'agent']) {
      assert.match(optInSourceProblem('opt_in', source) ?? '', /only with source "api"/);
      assert.equal(optInSourceProblem('opt_out', source), null);
    }
  });

  it('`open` stands for queued and processing', () => {
    assert.deepEqual(expandOptOutStatuses(['open', 'completed', 'queued']), ['completed', 'processing', 'queued']);
    assert.equal(expandOptOutStatuses([]), undefined);
  });

  it('every kind is in the preferences, not_set where nothing was accepted', () => {
    const at = '2026-12-04T15:30:00.000Z';
    assert.deepEqual(preferencesOf([{ kind: 'sensitive_use', choice: 'opt_out', source: 'gpc', updated_at: at }]), {
      sale_sharing: { choice: 'not_set', source: null, updated_at: null },
      sensitive_use: { choice: 'opt_out', source: 'gpc', updated_at: at },
      direct_marketing: { choice: 'not_set', source: null, updated_at: null },
    });
  });

  it('an opt-out is processing while a task is pending, then failed when one failed, else completed', () => {
    assert.equal(optOutStatusAfterTasks(['completed', 'pending']), 'processing');
    assert.equal(
      optOutStatusAfterTasks(['failed', 'pending']),
      'processing',
      'a failed task waits for the others, as a request does',
    );
    assert.equal(optOutStatusAfterTasks(['failed', 'completed']), 'failed');
    assert.equal(optOutStatusAfterTasks(['completed', 'not_applicable', 'superseded']), 'completed');
    assert.equal(optOutStatusAfterTasks(['superseded']), 'completed', 'superseded counts as done');
  });
});
