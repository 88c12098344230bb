/**
 * What an exercise files (PRODUCT §2.19 "Exercise" table and "Identity"): privacy requests,
 * opt-outs and opt-ins, denials; at once or after the person's code; what the DRP record keeps.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateExerciseClaims, type DrpExerciseClaims } from '../../src/modules/drp/claims.fns.js';
import { DRP_SUPPORTABLE_ACTIONS, type DrpAction } from '../../src/modules/drp/drp.types.js';
import {
  EMAIL_REQUIRED_DETAILS,
  planExercise,
  recordClaims,
  type ExerciseContext,
} from '../../src/modules/drp/exercise-plan.fns.js';
import { isForbiddenAddress } from '../../src/modules/outbound-events/address-guard.js';
import { fixtureDrpAgent, TIMES } from '../helpers/drp-agent.js';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const agent = fixtureDrpAgent();
const REQUEST_ID = '0b7a3f5e-2c44-4d8e-9a61-5d2f4c3b1e90';
const context: ExerciseContext = {
  requestId: REQUEST_ID,
  receivedAt: '2026-03-02T10:00:01.234Z',
  agent: { agentId: agent.agentId, name: 'Test Agent', confirmWithConsumer: false },
  supportedActions: [...DRP_SUPPORTABLE_ACTIONS],
};
const claims = (fields: Record<string, unknown> = {}): DrpExerciseClaims => {
  const result = validateExerciseClaims(agent.exerciseClaims('acme', TIMES.fresh(NOW), fields), {
    allowPrivate: false,
    isForbiddenAddress,
  });
  assert.ok(result.ok, 'the claims are valid');
  return result.value;
};
const agentRef = { id: agent.agentId, name: 'Test Agent', drp_request_id: REQUEST_ID, proof_ref: null };

describe('the exercise table', () => {
  for (const type of ['deletion', 'access'] as const) {
    test(`${type} files a privacy request of that type, scope ["user"], the email as subject`, () => {
      assert.deepEqual(planExercise(claims({ exercise: type, email: ' Jane.Doe@example.com ' }), context), {
        outcome: 'privacy_request',
        filing: 'now',
        request: {
          request_type: type,
          scope: ['user'],
          subject_provider: 'email',
          subject_id: 'Jane.Doe@example.com',
          received_at: context.receivedAt,
          intake_ref: `drp:${REQUEST_ID}`,
          client_request_id: `drp-${REQUEST_ID}`,
          add_regulation: 'ccpa',
          agent: agentRef,
        },
      });
    });
  }

  test('sale:opt-out records an opt-out of kind sale_sharing at once, even unverified (11 CCR §7026(d))', () => {
    assert.deepEqual(planExercise(claims({ exercise: 'sale:opt-out', email_verified: false }), context), {
      outcome: 'opt_out',
      filing: 'now',
      optOut: {
        kind: 'sale_sharing',
        choice: 'opt_out',
        source: 'agent',
        subject_provider: 'email',
        subject_id: 'jane.doe@example.com',
        received_at: context.receivedAt,
        client_request_id: `drp-${REQUEST_ID}`,
        agent: agentRef,
      },
    });
  });

  test('sale:opt-in waits for the person, even verified and with a power of attorney (11 CCR §7028(a))', () => {
    const plan = planExercise(claims({ exercise: 'sale:opt-in', power_of_attorney: 'poa-1' }), context);
    assert.equal(plan.outcome, 'opt_in');
    assert.ok(plan.outcome === 'opt_in');
    assert.equal(plan.filing, 'after_user_verification');
    assert.equal(plan.optOut.choice, 'opt_in');
    assert.equal(plan.optOut.agent.proof_ref, 'poa-1');
  });

  for (const action of ['access:categories', 'access:specific'] as DrpAction[]) {
    test(`${action} is denied claim_not_covered, naming the supported actions (DRP 1.0 §3.01 ☆)`, () => {
      assert.deepEqual(planExercise(claims({ exercise: action }), context), {
        outcome: 'denied',
        reason: 'claim_not_covered',
        processingDetails: 'This business takes these DRP actions: access, deletion, sale:opt-out, sale:opt-in.',
      });
    });
  }

  test('an action the business left out of supported_actions is denied claim_not_covered', () => {
    const plan = planExercise(claims({ exercise: 'sale:opt-out' }), { ...context, supportedActions: ['access', 'deletion'] });
    assert.deepEqual(plan, {
      outcome: 'denied',
      reason: 'claim_not_covered',
      processingDetails: 'This business takes these DRP actions: access, deletion.',
    });
  });
});

describe('identity: email, and when the request is filed', () => {
  test('no email: denied insuf_verification, nothing filed; an unsupported action is told first', () => {
    assert.deepEqual(planExercise(claims({ email: undefined }), context), {
      outcome: 'denied',
      reason: 'insuf_verification',
      processingDetails: EMAIL_REQUIRED_DETAILS,
    });
    assert.equal(
      (planExercise(claims({ email: undefined, exercise: 'access:specific' }), context) as { reason: string }).reason,
      'claim_not_covered',
    );
  });

  const moments: [string, Record<string, unknown>, boolean, 'now' | 'after_user_verification'][] = [
    ['email_verified true, confirm_with_consumer off', { email_verified: true }, false, 'now'],
    ['email_verified true, confirm_with_consumer on', { email_verified: true }, true, 'after_user_verification'],
    ['email_verified false', { email_verified: false }, false, 'after_user_verification'],
    ['email_verified absent', { email_verified: undefined }, false, 'after_user_verification'],
    ['power_of_attorney, email unverified (§7063(b))', { email_verified: false, power_of_attorney: 'doc-7' }, false, 'now'],
    ['power_of_attorney, confirm_with_consumer on', { power_of_attorney: 'doc-7' }, true, 'now'],
  ];
  for (const [name, fields, confirm, filing] of moments) {
    test(`${name} → ${filing}`, () => {
      const plan = planExercise(claims(fields), { ...context, agent: { ...context.agent, confirmWithConsumer: confirm } });
      assert.ok(plan.outcome === 'privacy_request');
      assert.equal(plan.filing, filing);
    });
  }

  test('the proof reference is the power_of_attorney claim; regime voluntary or none adds no regulation', () => {
    const plan = planExercise(claims({ power_of_attorney: 'doc-7', regime: 'voluntary' }), context);
    assert.ok(plan.outcome === 'privacy_request');
    assert.equal(plan.request.agent.proof_ref, 'doc-7');
    assert.equal(plan.request.add_regulation, null);
    const none = planExercise(claims({ regime: undefined }), context);
    assert.ok(none.outcome === 'privacy_request' && none.request.add_regulation === null);
  });
});

describe('what the DRP record keeps', () => {
  test('flags, ids, hints, callback, proof: never name, phone number, address or email', () => {
    const kept = recordClaims(
      claims({
        'agent-request-id': 'ar-1',
        relationships: ['customer'],
        phone_number: '+15555550100',
        phone_number_verified: true,
        address: { street_address: '1 Main St' },
        address_verified: false,
        power_of_attorney: 'doc-7',
      }),
    );
    assert.deepEqual(kept, {
      exercise: 'deletion',
      regime: 'ccpa',
      agent_request_id: 'ar-1',
      relationships: ['customer'],
      status_callback: 'https://agent.example/drp/update_status',
      email_verified: true,
      phone_number_verified: true,
      address_verified: false,
      proof_ref: 'doc-7',
    });
    const text = JSON.stringify(kept);
    for (const personal of ['Doe, Jane', '5555550100', 'Main St', 'jane.doe@example.com'])
      assert.ok(!text.includes(personal), personal);
  });
});
