/**
 * The claims of key setup, exercise and revoke (PRODUCT §2.19 "Key setup", "Exercise", "Revoke";
 * DRP 1.0 §2.01, §2.04, §2.05, §3.01, §3.04), after the signed-body checks.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMAIL_PATTERN } from '../../src/http/schemas/controller.schemas.js';
import {
  checkStatusCallback,
  DRP_EMAIL_PATTERN,
  validateExerciseClaims,
  validateKeySetupClaims,
  validateRevokeClaims,
  type CallbackAddressRules,
} from '../../src/modules/drp/claims.fns.js';
import { DRP_ACTIONS } from '../../src/modules/drp/drp.types.js';
import type { DrpFailure } from '../../src/modules/drp/drp-failure.types.js';
import { isForbiddenAddress } from '../../src/modules/outbound-events/address-guard.js';
import { fixtureDrpAgent, TIMES } from '../helpers/drp-agent.js';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const agent = fixtureDrpAgent();
const strict: CallbackAddressRules = { allowPrivate: false, isForbiddenAddress };
const open: CallbackAddressRules = { allowPrivate: true, isForbiddenAddress };
const exercise = (fields: Record<string, unknown> = {}) => agent.exerciseClaims('acme', TIMES.fresh(NOW), fields);
const failureOf = (fields: Record<string, unknown>, rules = strict): DrpFailure | null => {
  const result = validateExerciseClaims(exercise(fields), rules);
  return result.ok ? null : result.failure;
};

describe('key setup claims: drp.version "1.0"', () => {
  test('"1.0" passes; missing, 0.9 or 1 fails (key setup answers 403 without a body)', () => {
    assert.deepEqual(validateKeySetupClaims(agent.keySetupClaims('acme', TIMES.fresh(NOW))), { ok: true, value: null });
    for (const version of [undefined, '0.9', 1, '1.0 ']) {
      const claims = { ...agent.keySetupClaims('acme', TIMES.fresh(NOW)), 'drp.version': version };
      if (version === undefined) delete claims['drp.version'];
      assert.deepEqual(validateKeySetupClaims(claims), { ok: false, failure: { reason: 'drp_version_invalid' } });
    }
  });
});

describe('exercise claims', () => {
  test("the test agent's exercise (OSIRAA's fields) gives the claims kept, and no name, phone or address", () => {
    const result = validateExerciseClaims(
      exercise({ phone_number: '+15555550100', address: { country: 'US' }, email: '  jane.doe@example.com ' }),
      strict,
    );
    assert.deepEqual(result, {
      ok: true,
      value: {
        exercise: 'deletion',
        regime: 'ccpa',
        agentRequestId: null,
        relationships: [],
        statusCallback: 'https://agent.example/drp/update_status',
        email: 'jane.doe@example.com',
        emailVerified: true,
        phoneNumberVerified: null,
        addressVerified: null,
        powerOfAttorney: null,
      },
    });
    assert.ok(!JSON.stringify(result).includes('Doe, Jane') && !JSON.stringify(result).includes('5555550100'));
  });

  test("each of DRP §3.01's six actions passes; kept as given", () => {
    for (const action of DRP_ACTIONS) {
      const result = validateExerciseClaims(exercise({ exercise: action }), strict);
      assert.ok(result.ok && result.value.exercise === action, action);
    }
  });

  test('optional claims given as JSON null read as absent', () => {
    const result = validateExerciseClaims(
      exercise({ regime: null, status_callback: null, email: null, email_verified: null, 'agent-request-id': null }),
      strict,
    );
    assert.ok(result.ok);
    assert.deepEqual(
      [
        result.value.regime,
        result.value.statusCallback,
        result.value.email,
        result.value.emailVerified,
        result.value.agentRequestId,
      ],
      [null, null, null, null, null],
    );
  });

  test('agent-request-id, relationships and power_of_attorney are kept; lengths count code points', () => {
    const id = '😀'.repeat(200); // 400 UTF-16 units, 200 characters
    const result = validateExerciseClaims(
      exercise({ 'agent-request-id': id, relationships: ['customer', 'marketing'], power_of_attorney: 'doc-42' }),
      strict,
    );
    assert.ok(result.ok);
    assert.equal(result.value.agentRequestId, id);
    assert.deepEqual(result.value.relationships, ['customer', 'marketing']);
    assert.equal(result.value.powerOfAttorney, 'doc-42');
  });

  const refusals: [string, Record<string, unknown>, DrpFailure][] = [
    ['drp.version missing', { 'drp.version': undefined }, { reason: 'drp_version_invalid' }],
    ['drp.version 0.9', { 'drp.version': '0.9' }, { reason: 'drp_version_invalid' }],
    ['drp.version a number', { 'drp.version': 1.0 }, { reason: 'drp_version_invalid' }],
    ['exercise missing', { exercise: undefined }, { reason: 'exercise_unsupported' }],
    ["exercise sale:opt_in (OSIRAA's form value)", { exercise: 'sale:opt_in' }, { reason: 'exercise_unsupported' }],
    ['exercise as a 0.5-style list', { exercise: ['deletion'] }, { reason: 'exercise_unsupported' }],
    ['regime gdpr', { regime: 'gdpr' }, { reason: 'regime_unsupported' }],
    ['regime CCPA (case)', { regime: 'CCPA' }, { reason: 'regime_unsupported' }],
    [
      'agent-request-id of 201 characters',
      { 'agent-request-id': 'a'.repeat(201) },
      { reason: 'claim_invalid', claim: 'agent-request-id', expected: 'a string of 1 to 200 characters' },
    ],
    [
      'agent-request-id empty',
      { 'agent-request-id': '' },
      { reason: 'claim_invalid', claim: 'agent-request-id', expected: 'a string of 1 to 200 characters' },
    ],
    [
      'agent-request-id a number',
      { 'agent-request-id': 7 },
      { reason: 'claim_invalid', claim: 'agent-request-id', expected: 'a string of 1 to 200 characters' },
    ],
    [
      'relationships a string',
      { relationships: 'customer' },
      { reason: 'claim_invalid', claim: 'relationships', expected: 'a list of at most 20 strings of 1 to 100 characters' },
    ],
    [
      'relationships of 21',
      { relationships: Array.from({ length: 21 }, (_, i) => `r${i}`) },
      { reason: 'claim_invalid', claim: 'relationships', expected: 'a list of at most 20 strings of 1 to 100 characters' },
    ],
    [
      'status_callback http://',
      { status_callback: 'http://agent.example/cb' },
      { reason: 'status_callback_invalid', problem: 'scheme' },
    ],
    [
      'status_callback loopback',
      { status_callback: 'https://127.0.0.1/cb' },
      { reason: 'status_callback_invalid', problem: 'address' },
    ],
    [
      'status_callback link-local (cloud metadata)',
      { status_callback: 'https://169.254.169.254/latest' },
      { reason: 'status_callback_invalid', problem: 'address' },
    ],
    [
      'status_callback private IPv6',
      { status_callback: 'https://[fd00::1]/cb' },
      { reason: 'status_callback_invalid', problem: 'address' },
    ],
    [
      'status_callback with credentials',
      { status_callback: 'https://user:pw@agent.example/cb' },
      { reason: 'status_callback_invalid', problem: 'credentials' },
    ],
    [
      'status_callback not a URL',
      { status_callback: 'agent.example/cb' },
      { reason: 'status_callback_invalid', problem: 'not_url' },
    ],
    [
      'status_callback an object',
      { status_callback: { url: 'https://agent.example' } },
      { reason: 'status_callback_invalid', problem: 'not_url' },
    ],
    ['email a list', { email: ['a@example.com'] }, { reason: 'claim_invalid', claim: 'email', expected: 'a string' }],
    ['email without @', { email: 'jane.example.com' }, { reason: 'email_invalid' }],
    ['email with a space', { email: 'jane doe@example.com' }, { reason: 'email_invalid' }],
    [
      'email_verified "true"',
      { email_verified: 'true' },
      { reason: 'claim_invalid', claim: 'email_verified', expected: 'a boolean' },
    ],
    ['name a number', { name: 5 }, { reason: 'claim_invalid', claim: 'name', expected: 'a string' }],
    [
      'phone_number_verified 1',
      { phone_number_verified: 1 },
      { reason: 'claim_invalid', claim: 'phone_number_verified', expected: 'a boolean' },
    ],
    [
      'address a list',
      { address: ['1 Main St'] },
      { reason: 'claim_invalid', claim: 'address', expected: 'a string or an object' },
    ],
    [
      'power_of_attorney empty',
      { power_of_attorney: '' },
      { reason: 'claim_invalid', claim: 'power_of_attorney', expected: 'a string of 1 to 500 characters' },
    ],
  ];
  for (const [name, fields, failure] of refusals) {
    test(`${name} → ${failure.reason}`, () => assert.deepEqual(failureOf(fields), failure));
  }

  test('claims are checked in order: version before exercise before regime before callback before email', () => {
    const all = { 'drp.version': '2', exercise: 'x', regime: 'gdpr', status_callback: 'http://x', email: 'nope' };
    assert.deepEqual(failureOf(all), { reason: 'drp_version_invalid' });
    assert.deepEqual(failureOf({ ...all, 'drp.version': '1.0' }), { reason: 'exercise_unsupported' });
    assert.deepEqual(failureOf({ ...all, 'drp.version': '1.0', exercise: 'access' }), { reason: 'regime_unsupported' });
    assert.deepEqual(failureOf({ ...all, 'drp.version': '1.0', exercise: 'access', regime: 'ccpa' }), {
      reason: 'status_callback_invalid',
      problem: 'scheme',
    });
    assert.deepEqual(failureOf({ email: 'nope', email_verified: 'yes' }), { reason: 'email_invalid' });
  });

  test('with OUTBOUND_ALLOW_PRIVATE_NETWORKS, http:// and loopback callbacks pass (a receiver on this machine)', () => {
    assert.equal(failureOf({ status_callback: 'http://127.0.0.1:8003/update_status' }, open), null);
    assert.equal(failureOf({ status_callback: 'https://[::1]/cb' }, open), null);
    assert.deepEqual(failureOf({ status_callback: 'ftp://agent.example/cb' }, open), {
      reason: 'status_callback_invalid',
      problem: 'scheme',
    });
  });
});

describe('checkStatusCallback: the part decided before DNS', () => {
  test('an https name passes (it is judged when resolved); the address judge is the one injected', () => {
    assert.equal(checkStatusCallback('https://localhost/cb', strict), null);
    assert.equal(checkStatusCallback('https://8.8.8.8/cb', strict), null);
    const judged: string[] = [];
    const spy: CallbackAddressRules = { allowPrivate: false, isForbiddenAddress: (a) => (judged.push(a), true) };
    assert.equal(checkStatusCallback('https://[2001:db8::1]:8443/cb', spy), 'address');
    assert.deepEqual(judged, ['2001:db8::1']);
  });
  test('decimal and octal spellings of loopback are judged as 127.0.0.1 (WHATWG URL parsing)', () => {
    assert.equal(checkStatusCallback('https://2130706433/cb', strict), 'address');
    assert.equal(checkStatusCallback('https://0177.0.0.1/cb', strict), 'address');
  });
  test('more than 2000 characters is not_url', () => {
    assert.equal(checkStatusCallback(`https://agent.example/${'a'.repeat(1980)}`, strict), 'not_url');
  });
});

describe('revoke claims', () => {
  test('{reason} (OSIRAA) and {} pass', () => {
    assert.deepEqual(validateRevokeClaims({ reason: "I don't want my account deleted." }, 'r1'), {
      ok: true,
      value: { reason: "I don't want my account deleted." },
    });
    assert.deepEqual(validateRevokeClaims({}, 'r1'), { ok: true, value: { reason: null } });
  });
  test('a request_id naming another request is request_id_mismatch; the same one passes', () => {
    assert.deepEqual(validateRevokeClaims({ request_id: 'r2' }, 'r1'), { ok: false, failure: { reason: 'request_id_mismatch' } });
    assert.ok(validateRevokeClaims({ request_id: 'r1' }, 'r1').ok);
  });
  test('a reason that is not a string of 1 to 1000 characters is claim_invalid', () => {
    for (const reason of [5, '', 'x'.repeat(1001)]) {
      assert.deepEqual(validateRevokeClaims({ reason }, 'r1'), {
        ok: false,
        failure: { reason: 'claim_invalid', claim: 'reason', expected: 'a string of 1 to 1000 characters' },
      });
    }
  });
});

test("the e-mail pattern is the service's own (http/schemas EMAIL_PATTERN)", () => {
  assert.equal(DRP_EMAIL_PATTERN, EMAIL_PATTERN);
});
