/** An answer in transit (PRODUCT §2.13): which packages a deletion holds, and what a delivered one keeps. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildErasureReport, zeroCounts } from '../../src/modules/subject-data/erasure-report.fns.js';
import { deliveredPackage, heldCategories, holdMore, isInTransit } from '../../src/modules/subject-data/package-delivery.fns.js';

const NOW = '2026-05-04T09:00:00.000Z';
const PKG = JSON.stringify({
  format: 'privacy-access/1',
  data: { 'user.name': { name: 'Ada' }, 'user.contact.email': { email: 'ada@example.test' } },
  processing: { 'user.name': {}, 'user.contact.email': {} },
});

describe('answers in transit', () => {
  const base = { package: PKG, package_fetched_at: null, package_expires_at: null, status: 'completed' };

  it('is in transit only while completed, stored, unfetched and unexpired', () => {
    assert.equal(isInTransit(base, NOW), true);
    assert.equal(isInTransit({ ...base, package_expires_at: '2026-06-01T00:00:00.000Z' }, NOW), true);
    assert.equal(isInTransit({ ...base, package_fetched_at: NOW }, NOW), false, 'fetched: delivered');
    assert.equal(isInTransit({ ...base, package_expires_at: NOW }, NOW), false, 'expired at this instant');
    assert.equal(isInTransit({ ...base, status: 'action_required' }, NOW), false, 'not an answer given');
    assert.equal(isInTransit({ ...base, status: undefined }, NOW), false);
    assert.equal(isInTransit({ ...base, package: null }, NOW), false);
  });

  it('holds more categories in category order, and reads nothing from nothing or garbage', () => {
    assert.deepEqual(heldCategories(null), []);
    assert.deepEqual(heldCategories('not json'), []);
    assert.deepEqual(heldCategories('{"a":1}'), []);
    const held = holdMore(holdMore(null, ['user.name']), ['user.contact.email', 'user.name']);
    assert.deepEqual(JSON.parse(held), ['user.contact.email', 'user.name']);
  });

  it('once delivered, a package loses what was held; all of it gone is null (erased)', () => {
    assert.equal(deliveredPackage(PKG, null), PKG);
    const cut = JSON.parse(deliveredPackage(PKG, '["user.name"]') ?? 'null');
    assert.deepEqual(Object.keys(cut.data), ['user.contact.email']);
    assert.deepEqual(Object.keys(cut.processing), ['user.contact.email']);
    assert.equal(deliveredPackage(PKG, '["user.name","user.contact.email"]'), null);
  });

  it('the deletion report lists each held answer under kept, with its request and the reason, in the first category', () => {
    const report = buildErasureReport(['user.account', 'user.name'], { ...zeroCounts(), packagesHeld: ['pr_A', 'pr_B'] });
    const kept = report.categories['user.account']!.kept;
    const held = kept.filter((k) => /not yet fetched/.test(k.what));
    assert.deepEqual(
      held.map((k) => k.what.includes('pr_A') || k.what.includes('pr_B')),
      [true, true],
    );
    for (const k of held) assert.match(k.why, /fetched once or its retention \(PACKAGE_RETENTION_DAYS\) passes/);
    assert.equal(report.categories['user.name']!.kept.length, 0);
    assert.equal(
      buildErasureReport(['user.name'], zeroCounts()).categories['user.name']!.kept.some((k) => /not yet fetched/.test(k.what)),
      false,
    );
  });
});
