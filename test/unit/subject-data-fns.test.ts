/**
 * Pure parts of request processing (PRODUCT.md §1 scope keys, §2.3 results): scope coverage,
 * the account set, export/access package shapes (GDPR Art. 15/20), erasing categories from
 * stored packages, the erasure report (no personal data), correction checks (Art. 16).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accountSet } from '../../src/modules/subject-data/accounts.fns.js';
import { correctionProblems } from '../../src/workflows/subject-data/correction.js';
import { buildErasureReport, zeroCounts } from '../../src/modules/subject-data/erasure-report.fns.js';
import {
  buildAccessPackage,
  buildExportPackage,
  controllerNote,
  packageWithout,
  type PackageRequest,
} from '../../src/modules/subject-data/package.fns.js';
import { categoriesInScope, covers, DATA_CATEGORIES } from '../../src/modules/subject-data/scope.fns.js';
import type { SubjectData } from '../../src/modules/subject-data/subject-data.types.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const POLICY = { retention_days: 30, auto_erase_on_deprovision: false };

function request(scope: string[], regulation = 'gdpr'): PackageRequest {
  return { id: 'pr_1', workspace_id: 'acme', subject_provider: 'okta', subject_id: 'u1', scope, regulation };
}

const EMPTY: SubjectData = {
  subject: null,
  linked: [],
  accounts: [],
  identityEvents: [],
  changeEvents: [],
  requests: [],
  results: [],
};

const KNOWN: SubjectData = {
  subject: {
    id: 'sub_1',
    workspace_id: 'acme',
    subject_provider: 'okta',
    subject_id: 'u1',
    state: 'active',
    email: 'ada@example.test',
    name: 'Ada',
    username: 'ada',
    last_event_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
  },
  linked: [{ provider: 'github', account_id: '583231', login: 'octo-ada' }],
  accounts: [
    { provider: 'okta', account_id: 'u1' },
    { provider: 'github', account_id: '583231' },
  ],
  identityEvents: [
    {
      subject_ref: 'sub_1',
      event_id: 'e1',
      event_type: 'user.created',
      occurred_at: '2026-10-01T00:00:00.000Z',
      data: '{"user_id":"u1","email":"old@example.test","name":"Ada"}',
      received_at: '2026-10-01T00:00:01.000Z',
    },
    {
      subject_ref: 'sub_1',
      event_id: 'e2',
      event_type: 'user.updated',
      occurred_at: '2026-11-01T00:00:00.000Z',
      data: '{"user_id":"u1","email":"ada@example.test","username":"ada"}',
      received_at: '2026-11-01T00:00:01.000Z',
    },
  ],
  changeEvents: [
    {
      id: 'chg_1',
      workspace_id: 'acme',
      integration_id: 'int_1',
      provider: 'github',
      repository: 'acme/app',
      repository_display: null,
      number: 7,
      action: 'opened',
      head_sha: 'abc',
      title: 'Fix it',
      author_account_id: null,
      author_login: null,
      author_pseudonym: 'f'.repeat(64),
      decision: '{}',
      policy_version: 'd5.w0.r0',
      received_at: '2026-11-02T00:00:00.000Z',
    },
  ],
  requests: [],
  results: [],
};

describe('scope coverage (a key covers its descendants)', () => {
  test('user covers every category; a leaf covers itself only', () => {
    for (const category of DATA_CATEGORIES) assert.equal(covers(['user'], category), true);
    assert.equal(covers(['user.contact'], 'user.contact.email'), true);
    assert.equal(covers(['user.contact.email'], 'user.contact'), false);
    assert.equal(covers(['user.name'], 'user.contact.email'), false);
    assert.equal(covers(['user.account'], 'user.accountant'), false);
  });

  test('categoriesInScope lists leaves in a fixed order, once', () => {
    assert.deepEqual(categoriesInScope(['user.content', 'user.contact', 'user.contact.email']), [
      'user.contact.email',
      'user.content',
    ]);
    assert.deepEqual(categoriesInScope(['user']), [...DATA_CATEGORIES]);
    assert.deepEqual(categoriesInScope([]), []);
  });
});

describe('account set', () => {
  test('the named key, the subject key and the linked accounts, each once', () => {
    const named = { workspace_id: 'acme', subject_provider: 'GitHub', subject_id: '583231' };
    const set = accountSet(named, { subject_provider: 'okta', subject_id: 'u1' }, [
      { provider: 'github', account_id: '583231', login: 'x' },
      { provider: 'gitlab', account_id: '9' },
    ]);
    assert.deepEqual(set, [
      { provider: 'GitHub', account_id: '583231' },
      { provider: 'okta', account_id: 'u1' },
      { provider: 'gitlab', account_id: '9' },
    ]);
  });
});

describe('export package (GDPR Art. 20)', () => {
  test('only the categories in scope, with the subject data', () => {
    const pkg = buildExportPackage(request(['user.contact', 'user.content']), KNOWN, NOW);
    assert.equal(pkg.format, 'privacy-export/1');
    assert.deepEqual(Object.keys(pkg.data), ['user.contact.email', 'user.content']);
    assert.deepEqual(pkg.data['user.contact.email'], { email: 'ada@example.test', earlier_values: ['old@example.test'] });
    assert.deepEqual(pkg.data['user.content']?.change_events[0], {
      id: 'chg_1',
      provider: 'github',
      repository: 'acme/app',
      number: 7,
      action: 'opened',
      title: 'Fix it',
      head_sha: 'abc',
      received_at: '2026-11-02T00:00:00.000Z',
      author_account_id: null,
      author_login: null,
    });
    assert.equal(pkg.generated_at, NOW.toISOString());
    assert.deepEqual(pkg.subject, { provider: 'okta', id: 'u1' });
    assert.match(pkg.controller_note, /Art\. 20/);
    assert.equal('processing' in pkg, false);
  });

  test('the account category: identity, state, username, linked accounts, events', () => {
    const account = buildExportPackage(request(['user.account']), KNOWN, NOW).data['user.account'];
    assert.deepEqual(account?.identity, { provider: 'okta', id: 'u1' });
    assert.equal(account?.state, 'active');
    assert.equal(account?.username, 'ada');
    assert.deepEqual(account?.linked_accounts, [{ provider: 'github', account_id: '583231', login: 'octo-ada' }]);
    assert.deepEqual(
      account?.identity_events.map((e) => e.event_id),
      ['e1', 'e2'],
    );
  });

  test('a subject never seen: every category in scope present and empty', () => {
    const pkg = buildExportPackage(request(['user']), EMPTY, NOW);
    assert.deepEqual(pkg.data, {
      'user.account': {
        identity: null,
        state: null,
        username: null,
        earlier_usernames: [],
        linked_accounts: [],
        identity_events: [],
        privacy_requests: [],
      },
      'user.contact.email': { email: null, earlier_values: [] },
      'user.name': { name: null, earlier_values: [] },
      'user.content': { change_events: [] },
    });
  });
});

describe('access package (GDPR Art. 15)', () => {
  test('adds purposes, recipients, retention and source per category in scope', () => {
    const pkg = buildAccessPackage(request(['user.name', 'user.content']), KNOWN, POLICY, NOW);
    assert.equal(pkg.format, 'privacy-access/1');
    assert.deepEqual(Object.keys(pkg.processing), ['user.name', 'user.content']);
    for (const statement of Object.values(pkg.processing)) {
      assert.ok(statement.purposes.length > 0 && statement.recipients.length > 0 && statement.source.length > 0);
      assert.ok(statement.retention.length > 0);
    }
    assert.match(pkg.processing['user.content']?.retention ?? '', /^30 days/);
    assert.deepEqual(pkg.processing['user.content']?.source, ['GitHub, which tells us about pull requests']);
    assert.match(pkg.processing['user.name']?.source[0] ?? '', /okta/);
    assert.match(pkg.controller_note, /Art\. 15/);
  });

  test('names CCPA when the request is under it', () => {
    assert.match(controllerNote('access', 'ccpa+gdpr'), /1798\.110/);
    assert.doesNotMatch(controllerNote('export', 'gdpr'), /1798/);
    assert.doesNotMatch(controllerNote('access', 'ccpa'), /GDPR/, 'a CCPA-only answer cites no GDPR article');
  });
});

describe('erasing categories from stored packages', () => {
  const stored = JSON.stringify(buildAccessPackage(request(['user']), KNOWN, POLICY, NOW));

  test('removes the categories from data and processing; keeps the rest', () => {
    const { json, removed } = packageWithout(stored, ['user.name']);
    assert.deepEqual(removed, ['user.name']);
    const pkg = JSON.parse(json ?? 'null');
    assert.equal('user.name' in pkg.data, false);
    assert.equal('user.name' in pkg.processing, false);
    assert.ok('user.account' in pkg.data);
  });

  test('drops the package when nothing is left, or when it is not a package', () => {
    assert.equal(packageWithout(stored, [...DATA_CATEGORIES]).json, null);
    assert.deepEqual(packageWithout('not json', ['user.name']), { json: null, removed: ['user.name'] });
  });

  test("a database system's rows go whole, whatever the scope; a webhook system's part by category", () => {
    const withSystems = JSON.stringify({
      ...JSON.parse(stored),
      systems: {
        'shop-db': { customer: [{ email: 'ada@example.com' }], orders: [{ total_cents: 5 }] },
        crm: { 'user.name': 'Ada', 'user.content': ['a note'] },
      },
    });
    const { json, removed } = packageWithout(withSystems, ['user.name']);
    const pkg = JSON.parse(json ?? 'null');
    assert.equal(pkg.systems['shop-db'], undefined, 'the rows carry no categories here: all of them go');
    assert.deepEqual(pkg.systems.crm, { 'user.content': ['a note'] });
    assert.deepEqual(removed, ['user.name']);
    assert.doesNotMatch(json ?? '', /ada@example\.com/);
  });

  test('leaves a package without those categories untouched', () => {
    const only = JSON.stringify(buildExportPackage(request(['user.content']), KNOWN, NOW));
    assert.deepEqual(packageWithout(only, ['user.name']), { json: only, removed: [] });
  });
});

describe('erasure report', () => {
  test('one entry per category in scope; what every erasure keeps stated once', () => {
    const report = buildErasureReport([...DATA_CATEGORIES], { ...zeroCounts(), profiles: 1, email: 1, tombstones: 2 });
    assert.equal(report.format, 'erasure-report/1');
    assert.deepEqual(Object.keys(report.categories), [...DATA_CATEGORIES]);
    const kept = Object.values(report.categories).flatMap((c) => c.kept.map((k) => k.what));
    assert.equal(kept.filter((w) => w.startsWith('privacy request records')).length, 1);
    assert.ok(kept.some((w) => w.startsWith('tombstones')));
    assert.ok(
      report.categories['user.content']?.kept.some((k) => k.what === 'change event policy decisions, without author or title'),
    );
    for (const category of Object.values(report.categories)) for (const item of category.kept) assert.match(item.why, /\S/);
  });

  test('zero counts for a subject never seen', () => {
    const report = buildErasureReport(['user.name'], zeroCounts());
    assert.ok(report.categories['user.name']?.erased.every((e) => e.count === 0));
  });
});

describe('correction checks (GDPR Art. 16)', () => {
  test('accepts correctable fields in scope with 1–max code points', () => {
    assert.deepEqual(correctionProblems(['user'], { email: 'a@b.test', name: 'Ada', username: 'ada' }), []);
    assert.deepEqual(correctionProblems(['user.name'], { name: '𝒜'.repeat(500) }), []);
  });

  test('names every refused field with its problem', () => {
    assert.deepEqual(correctionProblems(['user.name'], { name: '', email: 'a@b.test', state: 'x', username: 5 }), [
      { field: 'name', problem: 'invalid_value' },
      { field: 'email', problem: 'not_in_scope' },
      { field: 'state', problem: 'not_correctable' },
      { field: 'username', problem: 'not_in_scope' },
    ]);
    assert.deepEqual(correctionProblems(['user'], { username: 'u'.repeat(301), name: 7 }), [
      { field: 'username', problem: 'invalid_value' },
      { field: 'name', problem: 'invalid_value' },
    ]);
  });
});

describe('erasure report of user.account alone', () => {
  test('states the email and name that went with the profile, and change event authors', () => {
    const report = buildErasureReport(['user.account'], {
      ...zeroCounts(),
      profiles: 1,
      email: 1,
      name: 0,
      changeEventAuthors: 3,
    });
    const erased = Object.fromEntries((report.categories['user.account']?.erased ?? []).map((e) => [e.what, e.count]));
    assert.equal(erased['email address, erased with the profile record'], 1);
    assert.equal(erased['name, erased with the profile record'], 0);
    assert.equal(erased['change event author ids, logins and pseudonyms'], 3);
  });
});
