/**
 * Stored policy layers the API would refuse today (`regulations: []` written before it was
 * refused, odd JSON) are read field by field: an unusable field is absent and inherits; the merge
 * then always yields a policy a deadline can be computed from (docs/decisions.md).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_POLICY, mergePolicy } from '../../src/modules/policies/policy-merge.fns.js';
import { readStoredSettings } from '../../src/modules/policies/stored-layer.fns.js';
import { computeDueAt, computeExtendedDueAt } from '../../src/modules/privacy-requests/deadline.fns.js';

describe('readStoredSettings', () => {
  test('keeps every valid field as stored', () => {
    const layer = {
      processing_allowed: false,
      retention_days: 3650,
      author_identity: 'none',
      excluded_paths: [],
      regulations: ['ccpa', 'gdpr'],
      require_approval: true,
      auto_erase_on_deprovision: false,
      confirm_no_data: false,
      holidays: ['2026-12-25', '2027-01-01'],
      repeat_window_days: 365,
    };
    assert.deepEqual(readStoredSettings(JSON.stringify(layer)), layer);
  });

  test('leaves out each field the API would refuse, keeping the others', () => {
    const cases: [string, unknown][] = [
      ['regulations', []],
      ['regulations', ['hipaa']],
      ['regulations', 'gdpr'],
      ['regulations', ['gdpr', 7]],
      ['regulations', null],
      ['retention_days', 0],
      ['retention_days', 3651],
      ['retention_days', 1.5],
      ['retention_days', '30'],
      ['author_identity', 'anonymous'],
      ['excluded_paths', 'vendor/'],
      ['excluded_paths', ['ok/', '']],
      ['excluded_paths', [null]],
      ['processing_allowed', 'false'],
      ['require_approval', 1],
      ['auto_erase_on_deprovision', null],
      ['confirm_no_data', 'no'],
      ['holidays', ['2026-02-30']],
      ['holidays', ['25/12/2026']],
      ['holidays', '2026-12-25'],
      ['repeat_window_days', -1],
      ['repeat_window_days', 366],
      ['repeat_window_days', 7.5],
      ['repeat_window_days', '30'],
      ['repeat_window_days', null],
    ];
    for (const [field, value] of cases) {
      const kept = field === 'author_identity' ? { retention_days: 30 } : { author_identity: 'none' };
      const settings = readStoredSettings(JSON.stringify({ ...kept, [field]: value }));
      assert.deepEqual(settings, kept, `${field}: ${JSON.stringify(value)}`);
    }
  });

  test('drops unknown fields; text that is not a JSON object is an empty layer', () => {
    assert.deepEqual(readStoredSettings('{"retension_days":7,"retention_days":7}'), { retention_days: 7 });
    for (const text of ['', 'not json', '[]', 'null', '"x"', '5', '[{"retention_days":7}]']) {
      assert.deepEqual(readStoredSettings(text), {}, text);
    }
  });
});

describe('merging stored layers', () => {
  test('a stored `regulations: []` in either layer leaves the regulations it would have emptied', () => {
    const empty = JSON.stringify({ regulations: [] });
    const ccpa = JSON.stringify({ regulations: ['ccpa'] });
    assert.deepEqual(mergePolicy({ workspace: readStoredSettings(empty), repository: null }).policy.regulations, ['gdpr']);
    const merged = mergePolicy({ workspace: readStoredSettings(ccpa), repository: readStoredSettings(empty) });
    assert.deepEqual(merged.policy.regulations, ['ccpa']);
    assert.equal(merged.sources.regulations, 'workspace');
  });

  test('property: any stored JSON in both layers merges to a policy with deadlines', () => {
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom([], ['gdpr'], ['ccpa', 'ccpa'], ['hipaa'], 0, 3650, 'none', 'full', true),
    );
    const fields = fc.constantFrom(...Object.keys(DEFAULT_POLICY), 'retension_days');
    const stored = fc.oneof(
      fc.dictionary(fields, value).map((layer) => JSON.stringify(layer)),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.option(stored), fc.option(stored), (workspace, repository) => {
        const { policy } = mergePolicy({
          workspace: workspace === null ? null : readStoredSettings(workspace),
          repository: repository === null ? null : readStoredSettings(repository),
        });
        assert.ok(policy.regulations.length > 0);
        assert.ok(policy.regulations.every((r) => r === 'gdpr' || r === 'ccpa'));
        assert.ok(Number.isInteger(policy.retention_days) && policy.retention_days >= 1 && policy.retention_days <= 3650);
        assert.ok(['full', 'pseudonymous', 'none'].includes(policy.author_identity));
        assert.ok(policy.excluded_paths.every((p) => typeof p === 'string'));
        for (const flag of ['processing_allowed', 'require_approval', 'auto_erase_on_deprovision', 'confirm_no_data'] as const) {
          assert.equal(typeof policy[flag], 'boolean');
        }
        const received = new Date('2026-01-31T12:00:00Z');
        assert.ok(Number.isFinite(computeDueAt(policy.regulations, received).getTime()));
        assert.ok(Number.isFinite(computeExtendedDueAt(policy.regulations, received).getTime()));
      }),
      { numRuns: 500 },
    );
  });
});
