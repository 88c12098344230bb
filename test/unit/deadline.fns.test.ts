/**
 * Deadline arithmetic (PRODUCT.md §2.3): GDPR Art. 12(3) one calendar month (+2 months on
 * extension), CCPA Cal. Civ. Code 1798.130 45 days (+45 on extension); with both, the earlier.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  computeDueAt,
  computeExtendedDueAt,
  isOverdue,
  type Regulation,
  regulationLabel,
} from '../../src/modules/privacy-requests/deadline.fns.js';
import { FINAL_STATUSES } from '../../src/modules/request-model/request-model.js';

interface DeadlineCase {
  readonly name: string;
  readonly regulations: readonly Regulation[];
  readonly receivedAt: string;
  readonly dueAt: string;
  readonly extendedDueAt: string;
}

const GDPR: readonly Regulation[] = ['gdpr'];
const CCPA: readonly Regulation[] = ['ccpa'];
const BOTH: readonly Regulation[] = ['gdpr', 'ccpa'];

const cases: readonly DeadlineCase[] = [
  // GDPR: one calendar month; a day missing in the target month becomes its last day.
  {
    name: 'gdpr mid-month',
    regulations: GDPR,
    receivedAt: '2026-03-15T10:00:00.000Z',
    dueAt: '2026-04-15T10:00:00.000Z',
    extendedDueAt: '2026-06-15T10:00:00.000Z',
  },
  {
    name: 'gdpr Jan 31 → Feb 28 (2026, common year); extension from the due date → Apr 28',
    regulations: GDPR,
    receivedAt: '2026-01-31T09:30:00.000Z',
    dueAt: '2026-02-28T09:30:00.000Z',
    extendedDueAt: '2026-04-28T09:30:00.000Z',
  },
  {
    name: 'gdpr Jan 31 → Feb 29 (2028, leap year)',
    regulations: GDPR,
    receivedAt: '2028-01-31T00:00:00.000Z',
    dueAt: '2028-02-29T00:00:00.000Z',
    extendedDueAt: '2028-04-29T00:00:00.000Z',
  },
  {
    name: 'gdpr Feb 29 (leap day) → Mar 29',
    regulations: GDPR,
    receivedAt: '2028-02-29T12:00:00.000Z',
    dueAt: '2028-03-29T12:00:00.000Z',
    extendedDueAt: '2028-05-29T12:00:00.000Z',
  },
  {
    name: 'gdpr Mar 31 → Apr 30',
    regulations: GDPR,
    receivedAt: '2026-03-31T08:00:00.000Z',
    dueAt: '2026-04-30T08:00:00.000Z',
    extendedDueAt: '2026-06-30T08:00:00.000Z',
  },
  {
    name: 'gdpr Dec 31 → Jan 31 next year (year boundary), time of day kept to the ms',
    regulations: GDPR,
    receivedAt: '2026-12-31T23:59:59.999Z',
    dueAt: '2027-01-31T23:59:59.999Z',
    extendedDueAt: '2027-03-31T23:59:59.999Z',
  },
  {
    name: 'gdpr Nov 30 → Dec 30; extension crosses the year into a short February',
    regulations: GDPR,
    receivedAt: '2026-11-30T06:07:08.009Z',
    dueAt: '2026-12-30T06:07:08.009Z',
    extendedDueAt: '2027-02-28T06:07:08.009Z',
  },
  // CCPA: 45 calendar days, +45 on extension.
  {
    name: 'ccpa 45 days',
    regulations: CCPA,
    receivedAt: '2026-01-01T00:00:00.000Z',
    dueAt: '2026-02-15T00:00:00.000Z',
    extendedDueAt: '2026-04-01T00:00:00.000Z',
  },
  {
    name: 'ccpa 45 days across a common-year February',
    regulations: CCPA,
    receivedAt: '2026-02-01T15:45:00.000Z',
    dueAt: '2026-03-18T15:45:00.000Z',
    extendedDueAt: '2026-05-02T15:45:00.000Z',
  },
  {
    name: 'ccpa 45 days across a leap-year February (one day earlier)',
    regulations: CCPA,
    receivedAt: '2028-02-01T15:45:00.000Z',
    dueAt: '2028-03-17T15:45:00.000Z',
    extendedDueAt: '2028-05-01T15:45:00.000Z',
  },
  {
    name: 'ccpa across the year boundary',
    regulations: CCPA,
    receivedAt: '2026-12-01T12:00:00.000Z',
    dueAt: '2027-01-15T12:00:00.000Z',
    extendedDueAt: '2027-03-01T12:00:00.000Z',
  },
  // Both: the earlier of the two, separately for the due date and for the extended one.
  {
    name: 'both: gdpr due binds; gdpr extension (87 days) binds over ccpa (90)',
    regulations: BOTH,
    receivedAt: '2026-01-31T09:30:00.000Z',
    dueAt: '2026-02-28T09:30:00.000Z',
    extendedDueAt: '2026-04-28T09:30:00.000Z',
  },
  {
    name: 'both: gdpr due binds; ccpa extension (90 days) binds over gdpr (92)',
    regulations: BOTH,
    receivedAt: '2026-06-01T00:00:00.000Z',
    dueAt: '2026-07-01T00:00:00.000Z',
    extendedDueAt: '2026-08-30T00:00:00.000Z',
  },
  {
    name: 'both, listed ccpa first: same result',
    regulations: ['ccpa', 'gdpr'],
    receivedAt: '2026-06-01T00:00:00.000Z',
    dueAt: '2026-07-01T00:00:00.000Z',
    extendedDueAt: '2026-08-30T00:00:00.000Z',
  },
];

describe('computeDueAt / computeExtendedDueAt', () => {
  for (const c of cases) {
    test(c.name, () => {
      const receivedAt = new Date(c.receivedAt);
      assert.equal(computeDueAt(c.regulations, receivedAt).toISOString(), c.dueAt);
      assert.equal(computeExtendedDueAt(c.regulations, receivedAt).toISOString(), c.extendedDueAt);
      assert.equal(receivedAt.toISOString(), c.receivedAt, 'the input date is not mutated');
    });
  }

  test('RangeError on an empty list of regulations', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    assert.throws(() => computeDueAt([], at), RangeError);
    assert.throws(() => computeExtendedDueAt([], at), RangeError);
  });
});

describe('regulationLabel', () => {
  const labels: readonly [readonly Regulation[], string][] = [
    [['gdpr'], 'gdpr'],
    [['ccpa'], 'ccpa'],
    [['gdpr', 'ccpa'], 'ccpa+gdpr'],
    [['ccpa', 'gdpr'], 'ccpa+gdpr'],
    [['gdpr', 'gdpr', 'ccpa', 'ccpa'], 'ccpa+gdpr'],
  ];
  for (const [regulations, expected] of labels) {
    test(`${JSON.stringify(regulations)} → ${expected}`, () => {
      assert.equal(regulationLabel(regulations), expected);
    });
  }
});

describe('isOverdue', () => {
  const due = '2026-02-28T09:30:00.000Z';
  const extended = '2026-04-28T09:30:00.000Z';
  const at = (iso: string) => new Date(iso);
  const cases: readonly [string, string, string | null, string, boolean][] = [
    // [name, status, extendedDueAt, now, expected]
    ['before the due date', 'queued', null, '2026-02-28T09:29:59.999Z', false],
    ['exactly at the due instant', 'queued', null, due, false],
    ['1 ms past the due instant', 'queued', null, '2026-02-28T09:30:00.001Z', true],
    ['past the due date but extended', 'processing', extended, '2026-03-15T00:00:00.000Z', false],
    ['exactly at the extended instant', 'processing', extended, extended, false],
    ['1 ms past the extended date', 'processing', extended, '2026-04-28T09:30:00.001Z', true],
    ['pending_approval is not final', 'pending_approval', null, '2026-03-01T00:00:00.000Z', true],
    ['action_required is not final', 'action_required', null, '2026-03-01T00:00:00.000Z', true],
  ];
  for (const [name, status, extendedDueAt, now, expected] of cases) {
    test(name, () => {
      assert.equal(isOverdue(status, due, extendedDueAt, at(now)), expected);
    });
  }

  test('final statuses are never overdue', () => {
    assert.deepEqual([...FINAL_STATUSES].sort(), ['canceled', 'completed', 'failed', 'rejected']);
    const longAfter = at('2030-01-01T00:00:00.000Z');
    for (const status of FINAL_STATUSES) {
      assert.equal(isOverdue(status, due, null, longAfter), false, status);
      assert.equal(isOverdue(status, due, extended, longAfter), false, status);
    }
  });
});
