/**
 * Pure parts of the person's answer for connected data (PRODUCT §2.17): numbers as JSON numbers
 * only when exact; what a deletion kept, in plain words, by regulation; plain category names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exactJsonNumber } from '../../src/modules/connectors/json-number.fns.js';
import { categoryName } from '../../src/modules/data-categories/data-categories.fns.js';
import { processingColumns } from '../../src/modules/data-systems/data-system-processing.fns.js';
import { keptForPerson } from '../../src/workflows/results/deletion-kept.fns.js';
import { buildErasureReport, zeroCounts } from '../../src/modules/subject-data/erasure-report.fns.js';

describe('decimal text as a JSON number only when exact', () => {
  it('gives numbers for every value a double holds exactly, or prints back the same', () => {
    for (const [text, value] of [
      ['0', 0],
      ['42', 42],
      ['-17', -17],
      ['9007199254740991', 9007199254740991],
      ['9007199254740994', 9007199254740994],
      ['1234.50', 1234.5],
      ['0.10', 0.1],
      ['-0.000001', -0.000001],
      ['1e21', 1e21],
      ['123456789012345.6', 123456789012345.6],
    ] as const)
      assert.equal(exactJsonNumber(text), value, text);
  });

  it('keeps the text of every value a double would change, and of anything not a decimal', () => {
    for (const text of [
      '9007199254740993',
      '9223372036854775807',
      '-9223372036854775808',
      '18446744073709551615',
      '0.1000000000000000055511',
      '12345678901234567.5',
      'NaN',
      'Infinity',
      '-Infinity',
      '',
      '0x10',
      '1_000',
      ' 7',
    ])
      assert.equal(exactJsonNumber(text), text, text);
  });
});

describe('a category’s plain name', () => {
  it('names a key, or its nearest named parent, never the key', () => {
    assert.equal(categoryName('user.contact.email'), 'E-mail address');
    assert.equal(categoryName('user.device.ip_address'), 'IP addresses');
    assert.equal(categoryName('user.contact.email.work'), 'E-mail address');
    assert.equal(categoryName('user'), 'Personal data');
    assert.equal(categoryName('nonsense'), 'Personal data');
  });
});

describe('declared processing as stored', () => {
  it('writes lists as JSON (trimmed, no repeats), null as withdrawn, and leaves out what is not given', () => {
    assert.deepEqual(processingColumns({ purposes: [' a ', 'a', 'b'], source: null }), {
      purposes: '["a","b"]',
      source: null,
    });
    assert.deepEqual(processingColumns({}), {});
  });
});

describe('what a deletion kept, to the person', () => {
  const report = (packagesHeld: string[], tombstones: number) => ({
    ...buildErasureReport(['user.account', 'user.name'], { ...zeroCounts(), packagesHeld, tombstones }),
    systems: [
      { key: 'crm', name: 'CRM', outcome: 'completed', kept: [{ category: 'user.financial', reason: 'Invoices, tax law' }] },
      { key: 'desk', name: 'Desk', outcome: 'completed', kept: [] },
    ],
  });

  it('lists the request record, each answer in transit, the keyed hashes and each system’s hold, in that order', () => {
    const kept = keptForPerson(report(['pr_01ABC'], 1), ['gdpr']);
    assert.deepEqual(
      kept.map((k) => k.what),
      [
        'The record of this request: what you asked for, when, and how we answered it',
        'Our answer to your request pr_01ABC, which you have not downloaded yet',
        'A scrambled code of each identity of yours we erased (such as your e-mail address), from which it cannot be read back',
        'Financial data in CRM',
      ],
    );
    assert.equal(kept[3]!.why, 'Invoices, tax law');
    assert.match(kept[0]!.why, /\(GDPR Art\. 5\(2\) and 17\(3\)\(b\)\)/);
  });

  it('cites the law of the request’s regulations: CCPA’s record keeping alone, both under both', () => {
    const [ccpa] = keptForPerson(report([], 0), ['ccpa']);
    assert.doesNotMatch(ccpa!.why, /GDPR/);
    assert.match(ccpa!.why, /11 CCR §7101/);
    const [both] = keptForPerson(report([], 0), ['gdpr', 'ccpa']);
    assert.match(both!.why, /GDPR Art\. 5\(2\).*11 CCR §7101/);
  });

  it('states the request record even for a report with nothing else, or none at all', () => {
    assert.equal(keptForPerson(report([], 0), ['gdpr']).length, 2, 'the record and CRM’s hold');
    assert.equal(keptForPerson(null, ['gdpr']).length, 1);
  });
});
