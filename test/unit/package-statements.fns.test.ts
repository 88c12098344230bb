/** What packages and reports state besides the data (PRODUCT §2.10, §2.11; GDPR Art. 15(1)(e)–(h)). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldNames, profileFields, readProfileFields } from '../../src/modules/controllers/controller.fns.js';
import type { PrivacyRequestRow } from '../../src/modules/request-model/request-model.js';
import { DELETION_NOT_TOUCHED, reportWithContext } from '../../src/workflows/results/report-context.fns.js';
import { needsStatements, packageStatements, withStatements } from '../../src/modules/subject-data/package-statements.fns.js';

const CONTROLLER = {
  name: 'Acme',
  contact_email: 'privacy@acme.example',
  supervisory_authority: { name: 'BfDI', url: 'https://www.bfdi.bund.de/' },
};

describe('package statements', () => {
  it('adds what an older package lacks, keeps what a package has', () => {
    const old = JSON.stringify({ format: 'privacy-access/1', data: { 'user.name': { name: 'A' } } });
    assert.equal(needsStatements(old), true);
    const served = JSON.parse(withStatements(old, CONTROLLER, ['ccpa']));
    assert.deepEqual(served.controller, CONTROLLER);
    assert.deepEqual(served.data, { 'user.name': { name: 'A' } });
    assert.equal(served.automated_decision_making.applies, false);
    assert.deepEqual(
      served.rights.map((r: { regulation: string }) => r.regulation),
      Array(7).fill('ccpa'),
      "the request's regulation decides the rights added",
    );

    assert.equal(needsStatements('{"note":"not a package"}'), false, 'only access/export packages get them');
    const built = JSON.stringify({ format: 'privacy-export/1', data: {}, ...packageStatements(null, ['gdpr']) });
    assert.equal(needsStatements(built), false);
    assert.equal(withStatements(built, CONTROLLER, ['gdpr']), built, 'a package that names no controller keeps saying so');
    assert.equal(withStatements('not json', CONTROLLER, ['gdpr']), 'not json');
    assert.equal(needsStatements('[1]'), false);
  });
});

describe('controller profile fields', () => {
  it('keeps the known fields in their order and drops the rest', () => {
    const fields = profileFields({
      privacy_notice_url: 'https://acme.example/p',
      extra: 1,
      ...CONTROLLER,
    } as unknown as typeof CONTROLLER);
    assert.deepEqual(Object.keys(fields), ['name', 'contact_email', 'supervisory_authority', 'privacy_notice_url']);
    assert.deepEqual(fieldNames(fields), Object.keys(fields));
    assert.deepEqual(readProfileFields('{"name":"A","contact_email":"a@b.co","supervisory_authority":{"name":"X"}}'), {
      name: 'A',
      contact_email: 'a@b.co',
    });
  });
});

describe('reports name their request', () => {
  const request = {
    id: 'pr_1',
    request_type: 'deletion',
    workspace_id: 'acme',
    subject_provider: 'github',
    subject_id: '583231',
    created_at: '2026-05-01T10:00:00.000Z',
    completed_at: '2026-05-01T10:05:00.000Z',
    regulation: 'gdpr',
  } as PrivacyRequestRow;

  it('adds the request, workspace, subject as filed, times and what a deletion did not touch', () => {
    const out = JSON.parse(reportWithContext('{"format":"erasure-report/1","categories":{}}', request));
    assert.deepEqual(Object.keys(out), [
      'format',
      'request_id',
      'request_type',
      'workspace_id',
      'subject',
      'received_at',
      'completed_at',
      'categories',
      'not_touched',
      'kept',
    ]);
    assert.deepEqual(out.subject, { provider: 'github', id: '583231' });
    assert.deepEqual(out.not_touched, DELETION_NOT_TOUCHED);
  });

  it('takes per-system parts through its hook, and says nothing of systems without them', () => {
    const parts = [{ key: 'crm', name: 'CRM', outcome: 'completed', erased: { 'user.name': 1 } }];
    assert.deepEqual(JSON.parse(reportWithContext('{"format":"erasure-report/1"}', request, parts)).systems, parts);
    assert.equal('systems' in JSON.parse(reportWithContext('{"format":"erasure-report/1"}', request)), false);
    const correction = JSON.parse(
      reportWithContext('{"format":"correction-report/1"}', { ...request, request_type: 'correction' }),
    );
    assert.equal('not_touched' in correction, false);
    assert.equal('kept' in correction, false, 'what was kept is a deletion’s');
  });
});
