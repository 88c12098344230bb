/**
 * The console's policy layer form (console/src/lib/policy-draft.ts): what a save PUTs. A PUT replaces
 * the whole layer (PRODUCT §2.4), so a field set through the API and not shown in the form must
 * survive a save; the fields it shows are checked as the API checks them (§2.4, §2.18, §2.20).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toDraft, toSettings } from '../../console/src/lib/policy-draft.js';

describe('console policy layer draft', () => {
  it('round-trips every field it shows, holidays, the repeat window and the package review included', () => {
    const layer = {
      processing_allowed: false,
      require_approval: true,
      confirm_no_data: false,
      review_packages: true,
      retention_days: 30,
      repeat_window_days: 0,
      author_identity: 'none' as const,
      excluded_paths: ['vendor/**'],
      holidays: ['2026-12-24', '2026-12-25'],
      regulations: ['ccpa' as const],
    };
    assert.deepEqual(toSettings(toDraft(layer)), { settings: layer, problems: {} });
  });

  it('keeps a field it does not show, as it was', () => {
    const layer = { retention_days: 7, some_later_field: { on: true } } as never;
    assert.deepEqual(toSettings(toDraft(layer)).settings, { retention_days: 7, some_later_field: { on: true } });
  });

  it('inherits what is left empty', () => {
    assert.deepEqual(toSettings(toDraft(undefined)), { settings: {}, problems: {} });
  });

  it('names the field of each problem, and puts none of them in the body', () => {
    const draft = {
      ...toDraft(undefined),
      repeat_window_days: '366',
      retention_days: '0',
      holidays: '2026-02-30\n2026-12-25',
    };
    const { settings, problems } = toSettings(draft);
    assert.deepEqual(problems, {
      repeat_window_days: ['A whole number of days from 0 to 365'],
      retention_days: ['A whole number of days from 1 to 3650'],
      holidays: ['Not a calendar day written YYYY-MM-DD: 2026-02-30'],
    });
    assert.deepEqual(settings, {});
    assert.deepEqual(
      toSettings({ ...draft, repeat_window_days: '2.5', retention_days: '', holidays: ' 2026-12-25 \n2026-12-25' }).problems,
      {
        repeat_window_days: ['A whole number of days from 0 to 365'],
        holidays: ['Each day once'],
      },
    );
  });
});
