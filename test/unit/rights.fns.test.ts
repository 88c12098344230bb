/** The person's rights by regulation, in plain words (PRODUCT §2.13; src/modules/subject-data/rights.fns.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderMail } from '../../src/modules/privacy-center/mail-render.fns.js';
import {
  CPPA_COMPLAINT_URL,
  noAutomatedDecisions,
  regulationsOf,
  rightsUnder,
  rightTitle,
  whenDeclined,
} from '../../src/modules/subject-data/rights.fns.js';

const CONTROLLER = {
  name: 'Acme',
  contact_email: 'privacy@acme.example',
  supervisory_authority: { name: 'BfDI', url: 'https://www.bfdi.bund.de/' },
};

/** Words a person should never meet: transport, token scopes, tenancy, scope keys. */
const ENGINEERING = /privacy:read|webhook|workspace|\buser\.[a-z]/i;

describe('rights by regulation', () => {
  it('reads the request label, GDPR first; an unknown label is the policy default', () => {
    assert.deepEqual(regulationsOf('gdpr'), ['gdpr']);
    assert.deepEqual(regulationsOf('ccpa'), ['ccpa']);
    assert.deepEqual(regulationsOf('ccpa+gdpr'), ['gdpr', 'ccpa']);
    assert.deepEqual(regulationsOf(''), ['gdpr']);
  });

  it('GDPR: access to objection (Art. 15–21) and the complaint (Art. 77), naming the controller and authority', () => {
    const rights = rightsUnder(['gdpr'], CONTROLLER);
    assert.deepEqual(
      rights.map((r) => [r.right, r.article]),
      [
        ['access', 'GDPR Art. 15'],
        ['rectification', 'GDPR Art. 16'],
        ['erasure', 'GDPR Art. 17'],
        ['restriction', 'GDPR Art. 18'],
        ['portability', 'GDPR Art. 20'],
        ['objection', 'GDPR Art. 21'],
        ['complaint', 'GDPR Art. 77'],
      ],
    );
    for (const r of rights.slice(0, 6)) assert.match(r.statement, /write to Acme at privacy@acme\.example/);
    assert.match(rights[6]!.statement, /BfDI \(https:\/\/www\.bfdi\.bund\.de\/\)/);
    assert.ok(rights.every((r) => r.regulation === 'gdpr'));
    assert.ok(!rights.some((r) => /Cal\. Civ\. Code/.test(r.article)), 'no CCPA right under GDPR only');
  });

  it('CCPA: know, delete, correct, opt out, limit, no retaliation, and the CPPA complaint', () => {
    const rights = rightsUnder(['ccpa'], CONTROLLER);
    assert.deepEqual(
      rights.map((r) => r.right),
      ['know', 'delete', 'correct', 'opt_out', 'limit', 'non_discrimination', 'ccpa_complaint'],
    );
    assert.deepEqual(
      rights.map((r) => rightTitle(r.right)),
      [
        'Right to know',
        'Right to delete',
        'Right to correct',
        'Right to opt out of sale or sharing',
        'Right to limit use of sensitive personal information',
        'No retaliation',
        'Complaint',
      ],
    );
    assert.ok(rights.every((r) => r.regulation === 'ccpa' && !r.article.startsWith('GDPR') && !/GDPR/.test(r.statement)));
    assert.match(rights[6]!.statement, new RegExp(CPPA_COMPLAINT_URL.replaceAll('.', '\\.')));
  });

  it('both: GDPR and CCPA rights, GDPR first; plain words to "you", never engineering words', () => {
    const rights = rightsUnder(['gdpr', 'ccpa'], null);
    assert.equal(rights.length, 14);
    assert.deepEqual([...new Set(rights.map((r) => r.regulation))], ['gdpr', 'ccpa']);
    for (const r of rights) {
      assert.match(r.statement, /\byou/i, r.right);
      assert.doesNotMatch(r.statement, ENGINEERING, r.right);
      assert.doesNotMatch(r.statement, /undefined|null/, r.right);
    }
  });

  it('a declined request: complaint and court under GDPR, the CPPA under CCPA, both when both apply', () => {
    const gdpr = whenDeclined(['gdpr'], CONTROLLER);
    assert.match(gdpr, /BfDI: https:\/\/www\.bfdi\.bund\.de\/.*court \(GDPR Articles 77 and 79\)/);
    assert.doesNotMatch(gdpr, /California/);
    const ccpa = whenDeclined(['ccpa'], CONTROLLER);
    assert.match(ccpa, /California Privacy Protection Agency/);
    assert.doesNotMatch(ccpa, /GDPR|Article 77|BfDI/);
    const both = whenDeclined(['gdpr', 'ccpa'], null);
    assert.match(both, /where you live or work.*Articles 77 and 79.*California Privacy Protection Agency/);
  });

  it('the automated-decision statement cites GDPR Art. 22 only when GDPR applies', () => {
    assert.match(noAutomatedDecisions(['gdpr']), /GDPR Art\. 22/);
    assert.doesNotMatch(noAutomatedDecisions(['ccpa']), /GDPR/);
  });
});

describe('the rejected mail follows the regulation', () => {
  const mail = (regulation?: string) =>
    renderMail(
      'rejected',
      { request_type: 'access', reason: 'Not verifiable', ...(regulation ? { regulation } : {}) },
      CONTROLLER,
      null,
    ).text;

  it('names GDPR Art. 77/79 only under GDPR, the CPPA only under CCPA', () => {
    assert.match(mail('gdpr'), /Articles 77 and 79/);
    assert.doesNotMatch(mail('gdpr'), /California/);
    assert.match(mail('ccpa'), /California Privacy Protection Agency/);
    assert.doesNotMatch(mail('ccpa'), /GDPR|Article 77|supervisory/);
    assert.match(mail('ccpa+gdpr'), /Articles 77 and 79[\s\S]*California Privacy Protection Agency/);
    // An outbox row written before mails carried the regulation reads as it was written: GDPR.
    assert.match(mail(), /Articles 77 and 79/);
    for (const r of ['gdpr', 'ccpa', 'ccpa+gdpr']) assert.doesNotMatch(mail(r), ENGINEERING);
  });
});
