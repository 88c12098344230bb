/**
 * Effective policy merge (PRODUCT.md §2.4): the workspace replaces defaults field by field, the
 * repository can only tighten; `sources` names the layer that decided each value.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AuthorIdentity, Policy, PolicyLayerSettings } from '../../src/modules/policies/policy.types.js';
import {
  DEFAULT_POLICY,
  effectiveVersion,
  mergePolicy,
  normalizeRepository,
} from '../../src/modules/policies/policy-merge.fns.js';

function merge(workspace: PolicyLayerSettings | null, repository: PolicyLayerSettings | null = null) {
  return mergePolicy({ workspace, repository });
}

const RANK: Record<AuthorIdentity, number> = { full: 0, pseudonymous: 1, none: 2 };

describe('mergePolicy: each field, both directions', () => {
  // [field, workspace value, repository value, expected value, expected source]
  const cases: readonly [keyof Policy, unknown, unknown, unknown, string][] = [
    ['processing_allowed', false, true, false, 'workspace'], // AND
    ['processing_allowed', true, false, false, 'repository'],
    ['processing_allowed', true, true, true, 'workspace'], // the workspace set it, even to the default
    ['retention_days', 30, 60, 30, 'workspace'], // minimum
    ['retention_days', 60, 30, 30, 'repository'],
    ['retention_days', 365, 3650, 365, 'workspace'], // the workspace may loosen a default; the repository may not loosen it
    ['retention_days', 365, 120, 120, 'repository'],
    ['author_identity', 'none', 'full', 'none', 'workspace'], // most private
    ['author_identity', 'full', 'none', 'none', 'repository'],
    ['author_identity', 'pseudonymous', 'none', 'none', 'repository'],
    ['author_identity', 'full', 'full', 'full', 'workspace'],
    ['require_approval', true, false, true, 'workspace'], // OR
    ['require_approval', false, true, true, 'repository'],
    ['auto_erase_on_deprovision', true, false, true, 'workspace'], // OR
    ['auto_erase_on_deprovision', false, true, true, 'repository'],
    ['auto_erase_on_deprovision', false, false, false, 'workspace'],
    ['confirm_no_data', false, true, true, 'repository'], // OR: a repository cannot skip the review
    ['confirm_no_data', false, false, false, 'workspace'],
    ['confirm_no_data', true, false, true, 'workspace'],
    ['regulations', ['ccpa'], [], ['ccpa'], 'workspace'], // the workspace replaces the default ["gdpr"]
    ['regulations', ['ccpa'], ['gdpr'], ['ccpa', 'gdpr'], 'repository'], // union
    ['regulations', ['gdpr'], ['ccpa'], ['gdpr', 'ccpa'], 'repository'],
    ['excluded_paths', ['a/**'], ['b/**'], ['a/**', 'b/**'], 'repository'], // union
    ['excluded_paths', ['a/**', 'b/**'], [], ['a/**', 'b/**'], 'workspace'],
    ['holidays', ['2026-12-25'], ['2026-12-24', '2026-12-25'], ['2026-12-25', '2026-12-24'], 'repository'], // union
    ['holidays', ['2026-12-25'], [], ['2026-12-25'], 'workspace'],
    ['repeat_window_days', 30, 90, 90, 'repository'], // the larger: a repository looks further back
    ['review_packages', false, true, true, 'repository'], // OR: a repository cannot skip the review
    ['review_packages', true, false, true, 'workspace'],
    ['review_packages', false, false, false, 'workspace'],
    ['repeat_window_days', 90, 30, 90, 'workspace'],
    ['repeat_window_days', 0, 0, 0, 'workspace'],
    ['repeat_window_days', 0, 365, 365, 'repository'],
  ];
  for (const [field, ws, repo, expected, source] of cases) {
    test(`${field}: workspace ${JSON.stringify(ws)}, repository ${JSON.stringify(repo)} → ${JSON.stringify(expected)} from ${source}`, () => {
      const { policy, sources } = merge({ [field]: ws }, { [field]: repo });
      assert.deepEqual(policy[field], expected);
      assert.equal(sources[field], source);
    });
  }
});

describe('mergePolicy: sources', () => {
  test('no layers: the defaults, every source "default"', () => {
    const { policy, sources } = mergePolicy({ workspace: null, repository: null });
    assert.deepEqual(policy, { ...DEFAULT_POLICY });
    assert.ok(Object.values(sources).every((s) => s === 'default'));
    assert.deepEqual(Object.keys(sources).sort(), Object.keys(DEFAULT_POLICY).sort());
  });

  test('absent (null) layers and absent fields change nothing', () => {
    for (const result of [merge(null, null), merge({}, {}), merge(null, {})]) {
      assert.deepEqual(result.policy, { ...DEFAULT_POLICY });
      assert.ok(Object.values(result.sources).every((s) => s === 'default'));
    }
    const onlyRepo = merge(null, { retention_days: 7 });
    assert.equal(onlyRepo.policy.retention_days, 7);
    assert.equal(onlyRepo.sources.retention_days, 'repository');
  });

  test('a layer repeating the current value does not become the source', () => {
    const same = merge(
      {
        processing_allowed: false,
        retention_days: 30,
        author_identity: 'none',
        excluded_paths: ['x'],
        regulations: ['ccpa'],
        require_approval: true,
        auto_erase_on_deprovision: true,
        confirm_no_data: false,
        holidays: ['2026-12-25'],
        repeat_window_days: 30,
        review_packages: true,
      },
      {
        processing_allowed: false,
        retention_days: 30,
        author_identity: 'none',
        excluded_paths: ['x'],
        regulations: ['ccpa'],
        require_approval: true,
        auto_erase_on_deprovision: true,
        confirm_no_data: false,
        holidays: ['2026-12-25'],
        repeat_window_days: 30,
        review_packages: true,
      },
    );
    assert.ok(
      Object.values(same.sources).every((s) => s === 'workspace'),
      JSON.stringify(same.sources),
    );
    // Setting a default's value: the workspace decided it, so it is the source.
    const defaults = merge({ ...DEFAULT_POLICY, excluded_paths: [], regulations: ['gdpr'] });
    assert.ok(
      Object.values(defaults.sources).every((s) => s === 'workspace'),
      JSON.stringify(defaults.sources),
    );
  });

  test('a looser repository value leaves the workspace as the source', () => {
    const { policy, sources } = merge(
      { retention_days: 10, author_identity: 'none' },
      { retention_days: 20, author_identity: 'pseudonymous' },
    );
    assert.deepEqual([policy.retention_days, policy.author_identity], [10, 'none']);
    assert.deepEqual([sources.retention_days, sources.author_identity], ['workspace', 'workspace']);
  });

  test('a union subset does not change the source; a new item does', () => {
    const subset = merge({ excluded_paths: ['a', 'b'] }, { excluded_paths: ['b'] });
    assert.equal(subset.sources.excluded_paths, 'workspace');
    const grown = merge({ excluded_paths: ['a', 'b'] }, { excluded_paths: ['b', 'c'] });
    assert.equal(grown.sources.excluded_paths, 'repository');
  });
});

describe('mergePolicy: union order, dedup, no aliasing', () => {
  test('first-seen order, duplicates within and across layers removed', () => {
    const { policy } = merge({ excluded_paths: ['b', 'a', 'b'] }, { excluded_paths: ['a', 'c', 'c', 'b', 'd'] });
    assert.deepEqual(policy.excluded_paths, ['b', 'a', 'c', 'd']);
    const regs = merge({ regulations: ['ccpa', 'ccpa'] }, { regulations: ['gdpr', 'ccpa'] });
    assert.deepEqual(regs.policy.regulations, ['ccpa', 'gdpr']);
  });

  test('DEFAULT_POLICY is not mutated by merges nor by mutating a result', () => {
    const before = structuredClone({ ...DEFAULT_POLICY });
    const a = merge({ excluded_paths: ['x'], regulations: ['ccpa'], retention_days: 5 }, { author_identity: 'none' });
    const b = mergePolicy({ workspace: null, repository: null });
    b.policy.excluded_paths.push('mutated');
    b.policy.regulations.push('ccpa');
    b.policy.retention_days = 1;
    a.policy.excluded_paths.push('mutated');
    assert.deepEqual({ ...DEFAULT_POLICY }, before);
    assert.deepEqual(mergePolicy({ workspace: null, repository: null }).policy, before);
  });

  test('input layers are not mutated and not aliased by the result', () => {
    const workspace: PolicyLayerSettings = { excluded_paths: ['a'], regulations: ['ccpa'] };
    const repository: PolicyLayerSettings = { excluded_paths: ['b'] };
    const snapshot = structuredClone({ workspace, repository });
    const { policy } = merge(workspace, repository);
    policy.excluded_paths.push('z');
    policy.regulations.push('gdpr');
    assert.deepEqual({ workspace, repository }, snapshot);
  });
});

describe('effectiveVersion and normalizeRepository', () => {
  test('effectiveVersion is d<defaults>.w<n>.r<n>', () => {
    assert.equal(effectiveVersion(3, 7), 'd5.w3.r7');
    assert.equal(effectiveVersion(0, 0), 'd5.w0.r0');
    assert.equal(effectiveVersion(12, 0), 'd5.w12.r0');
    assert.notEqual(effectiveVersion(1, 12), effectiveVersion(11, 2));
  });

  test('normalizeRepository lower-cases, keeps the path', () => {
    assert.equal(normalizeRepository('Acme/Payments-API'), 'acme/payments-api');
    assert.equal(normalizeRepository('Group/Sub.Group/My_Project'), 'group/sub.group/my_project');
    assert.equal(normalizeRepository('acme/api'), 'acme/api');
    assert.equal(normalizeRepository(normalizeRepository('A/B')), 'a/b');
  });
});

/** A small seeded LCG (Numerical Recipes constants), so failures reproduce. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function randomLayer(rand: () => number): PolicyLayerSettings | null {
  if (rand() < 0.1) return null;
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rand() * values.length)] as T;
  const maybe = <T>(make: () => T): T | undefined => (rand() < 0.5 ? make() : undefined);
  const sub = <T>(values: readonly T[]): T[] => values.filter(() => rand() < 0.5);
  const layer: PolicyLayerSettings = {};
  const set = <K extends keyof Policy>(key: K, value: Policy[K] | undefined) => {
    if (value !== undefined) layer[key] = value;
  };
  set(
    'processing_allowed',
    maybe(() => rand() < 0.5),
  );
  set(
    'retention_days',
    maybe(() => 1 + Math.floor(rand() * 3650)),
  );
  set(
    'author_identity',
    maybe(() => pick(['full', 'pseudonymous', 'none'] as const)),
  );
  set(
    'excluded_paths',
    maybe(() => sub(['a/**', 'b/*.env', 'c/', 'd'])),
  );
  set(
    'regulations',
    maybe(() => sub(['gdpr', 'ccpa'] as const)),
  );
  set(
    'require_approval',
    maybe(() => rand() < 0.5),
  );
  set(
    'auto_erase_on_deprovision',
    maybe(() => rand() < 0.5),
  );
  set(
    'confirm_no_data',
    maybe(() => rand() < 0.5),
  );
  set(
    'holidays',
    maybe(() => sub(['2026-12-24', '2026-12-25', '2027-01-01'])),
  );
  set(
    'repeat_window_days',
    maybe(() => Math.floor(rand() * 366)),
  );
  return layer;
}

describe('property: a repository layer never loosens the workspace-only result', () => {
  test('500 seeded random layer combinations', () => {
    const rand = lcg(20260131);
    for (let i = 0; i < 500; i++) {
      const workspace = randomLayer(rand);
      const repository = randomLayer(rand);
      const ctx = JSON.stringify({ i, workspace, repository });
      const base = merge(workspace).policy;
      const { policy: both, sources } = merge(workspace, repository);
      assert.ok(!both.processing_allowed || base.processing_allowed, ctx);
      assert.ok(both.retention_days <= base.retention_days, ctx);
      assert.ok(RANK[both.author_identity] >= RANK[base.author_identity], ctx);
      for (const p of base.excluded_paths) assert.ok(both.excluded_paths.includes(p), ctx);
      for (const r of base.regulations) assert.ok(both.regulations.includes(r), ctx);
      assert.ok(both.require_approval || !base.require_approval, ctx);
      assert.ok(both.auto_erase_on_deprovision || !base.auto_erase_on_deprovision, ctx);
      assert.ok(both.confirm_no_data || !base.confirm_no_data, ctx);
      for (const h of base.holidays) assert.ok(both.holidays.includes(h), ctx);
      assert.ok(both.repeat_window_days >= base.repeat_window_days, ctx);
      // "repository" is the source exactly when it changed the value.
      for (const field of Object.keys(DEFAULT_POLICY) as (keyof Policy)[]) {
        const changed = JSON.stringify(both[field]) !== JSON.stringify(base[field]);
        assert.equal(sources[field] === 'repository', changed, `${field} ${ctx}`);
      }
    }
  });
});
