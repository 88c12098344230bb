/**
 * Refusals as PRODUCT §2.19's table gives them (status and DRP §3.06 body, byte for byte where the
 * table writes the body out), key setup's 403 without a body (DRP §2.05.1), and the failures the
 * checks produce reaching the row the table names.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateExerciseClaims } from '../../src/modules/drp/claims.fns.js';
import type { DrpFailure } from '../../src/modules/drp/drp-failure.types.js';
import { DRP_REFUSALS, drpRefusal } from '../../src/modules/drp/drp-errors.fns.js';
import { checkSignedMessage, type DrpSigner } from '../../src/modules/drp/message-checks.fns.js';
import { parseVerifyKey } from '../../src/modules/drp/signed-body.fns.js';
import { isForbiddenAddress } from '../../src/modules/outbound-events/address-guard.js';
import { fixtureDrpAgent, TIMES, withOneByteChanged } from '../helpers/drp-agent.js';

const wire = (failure: DrpFailure) => {
  const refusal = drpRefusal(failure, 'other');
  return { status: refusal.status, body: JSON.stringify(refusal.body), headers: refusal.headers };
};

describe("PRODUCT §2.19's error table, row by row", () => {
  const rows: [row: string, failures: DrpFailure[], status: number, body: string, headers?: Record<string, string>][] = [
    [
      'no, unknown or void token',
      [{ reason: 'token_invalid' }],
      401,
      '{"code":"401","message":"Invalid or missing bearer token","fatal":true}',
      { 'www-authenticate': 'Bearer error="invalid_token"' },
    ],
    [
      'body not Base64, or signature does not verify',
      [{ reason: 'body_not_base64' }, { reason: 'signature_invalid' }],
      403,
      '{"code":"403","message":"Signature does not verify","fatal":true}',
    ],
    [
      "agent-id ≠ the token's agent",
      [{ reason: 'agent_mismatch' }],
      403,
      '{"code":"403","message":"agent-id does not match the bearer token","fatal":true}',
    ],
    [
      "business-id ≠ the token's business",
      [{ reason: 'business_mismatch' }],
      403,
      '{"code":"403","message":"business-id names another business","fatal":true}',
    ],
    [
      'same signed body again, or a reused agent-request-id',
      [
        { reason: 'replayed', requestId: '6f1c6a63-0b8e-4d84-9f63-0b8a0e9f3c11' },
        { reason: 'agent_request_id_reused', requestId: '6f1c6a63-0b8e-4d84-9f63-0b8a0e9f3c11' },
      ],
      409,
      '{"code":"409","message":"Already received","fatal":false,"request_id":"6f1c6a63-0b8e-4d84-9f63-0b8a0e9f3c11"}',
    ],
    [
      'exercise missing or not one of the six',
      [{ reason: 'exercise_unsupported' }],
      400,
      '{"code":"400","message":"Unsupported rights actions submitted.","fatal":true}',
    ],
    [
      'regime not ccpa or voluntary',
      [{ reason: 'regime_unsupported' }],
      400,
      '{"code":"400","message":"Unsupported regime: DRP 1.0 knows ccpa and voluntary","fatal":true}',
    ],
    [
      "status or revoke of another agent's request",
      [{ reason: 'not_this_agents_request' }],
      403,
      `{"code":"403","message":"Not this agent's request"}`,
    ],
    ['unknown request_id', [{ reason: 'request_not_found' }], 404, '{"code":"404","message":"No such request"}'],
    [
      'DRP turned off ("Operations")',
      [{ reason: 'drp_disabled' }],
      403,
      '{"code":"403","message":"This business does not accept DRP requests","fatal":true}',
    ],
    [
      'revoke of a fulfilled request ("Revoke")',
      [{ reason: 'already_final', status: 'fulfilled' }],
      409,
      '{"code":"409","message":"Request is already fulfilled","fatal":false}',
    ],
  ];
  for (const [row, failures, status, body, headers = {}] of rows) {
    for (const failure of failures) {
      test(`${row} (${failure.reason}) → ${status} ${body}`, async () => {
        assert.deepEqual(wire(failure), { status, body, headers });
      });
    }
  }

  test('time rows: 403 "Request expired", fatal, the sentence naming which', async () => {
    const cases: [DrpFailure, string][] = [
      [{ reason: 'issued_in_future' }, 'issued-at is more than 60 seconds in the future'],
      [{ reason: 'expired' }, 'expires-at has passed'],
      [{ reason: 'window_invalid' }, 'at most 1 hour'],
      [{ reason: 'time_invalid', claim: 'issued-at' }, 'issued-at is not an ISO 8601 time with an offset'],
      [{ reason: 'time_invalid', claim: 'expires-at' }, 'expires-at is not an ISO 8601 time with an offset'],
    ];
    for (const [failure, which] of cases) {
      const { status, body } = drpRefusal(failure, 'other');
      assert.equal(status, 403);
      assert.equal(body?.code, '403');
      assert.equal(body?.fatal, true);
      assert.match(body?.message ?? '', /^Request expired: /);
      assert.ok(body?.message.includes(which), `${failure.reason}: ${body?.message}`);
    }
  });

  test('400 rows: JSON not an object, drp.version, a claim of a wrong type, email not an address, each saying what', async () => {
    const cases: [DrpFailure, string][] = [
      [{ reason: 'message_not_object' }, 'The signed message is not a JSON object'],
      [{ reason: 'drp_version_invalid' }, 'drp.version must be "1.0"'],
      [{ reason: 'claim_invalid', claim: 'email_verified', expected: 'a boolean' }, 'email_verified must be a boolean'],
      [{ reason: 'email_invalid' }, 'email is not an e-mail address'],
      [{ reason: 'request_id_mismatch' }, 'request_id does not name the request of the path'],
    ];
    for (const [failure, message] of cases)
      assert.deepEqual(drpRefusal(failure, 'other').body, { code: '400', message, fatal: true });
  });

  test('status_callback rows: 400, the sentence starting with status_callback', async () => {
    for (const problem of ['not_url', 'scheme', 'credentials', 'address'] as const) {
      const { status, body } = drpRefusal({ reason: 'status_callback_invalid', problem }, 'other');
      assert.equal(status, 400);
      assert.equal(body?.fatal, true);
      assert.match(body?.message ?? '', /^status_callback /);
    }
  });

  test('more than 60 calls a minute: 429 with Retry-After, fatal false', async () => {
    const refusal = drpRefusal({ reason: 'rate_limited', retryAfterSeconds: 17 }, 'other');
    assert.equal(refusal.status, 429);
    assert.deepEqual(refusal.headers, { 'retry-after': '17' });
    assert.equal(refusal.body?.code, '429');
    assert.equal(refusal.body?.fatal, false);
  });

  test('a replay whose first request is unknown (key setup has none) leaves request_id out', async () => {
    assert.deepEqual(drpRefusal({ reason: 'replayed', requestId: null }, 'other').body, {
      code: '409',
      message: 'Already received',
      fatal: false,
    });
  });

  test('every body has code = the status as a string, and never a null member', async () => {
    for (const reason of Object.keys(DRP_REFUSALS)) {
      const failure = {
        reason,
        claim: 'issued-at',
        expected: 'x',
        problem: 'scheme',
        status: 'denied',
        requestId: null,
        retryAfterSeconds: 1,
      } as unknown as DrpFailure;
      const { status, body } = drpRefusal(failure, 'other');
      assert.equal(body?.code, String(status), reason);
      assert.ok(!Object.values(body ?? {}).includes(null), reason);
    }
  });
});

describe('key setup: every refusal is 403 with no body (DRP §2.05.1)', () => {
  test('whatever the reason, except the transport limits, which keep their status (still no body)', async () => {
    for (const reason of Object.keys(DRP_REFUSALS)) {
      const failure = {
        reason,
        claim: 'issued-at',
        expected: 'x',
        problem: 'scheme',
        status: 'denied',
        requestId: null,
        retryAfterSeconds: 3,
      } as unknown as DrpFailure;
      const refusal = drpRefusal(failure, 'key_setup');
      assert.equal(refusal.body, null, reason);
      if (reason === 'body_too_large') assert.equal(refusal.status, 413);
      else if (reason === 'rate_limited') assert.deepEqual([refusal.status, refusal.headers], [429, { 'retry-after': '3' }]);
      else assert.deepEqual([refusal.status, refusal.headers], [403, {}], reason);
    }
  });
});

describe('from a refused message to its row', () => {
  const NOW = new Date('2026-03-02T10:00:00.000Z');
  const agent = fixtureDrpAgent();
  const parsed = parseVerifyKey(agent.verifyKey);
  assert.ok(parsed.ok);
  const signer: DrpSigner = { agentId: agent.agentId, businessId: 'acme', verifyKey: parsed.key };
  const refuse = async (body: string) => {
    const checked = await checkSignedMessage(body, { signers: [signer], now: NOW, envelope: 'required' });
    if (!checked.ok) return wire(checked.failure);
    const claims = validateExerciseClaims(checked.value.message, { allowPrivate: false, isForbiddenAddress });
    return claims.ok ? null : wire(claims.failure);
  };
  const exercise = (fields: Record<string, unknown> = {}, times = TIMES.fresh(NOW), business = 'acme') =>
    agent.sign(agent.exerciseClaims(business, times, fields));

  test('one byte changed, another business, expired, issued ahead, no offset, a sixth action, a private callback', async () => {
    assert.equal(
      (await refuse(withOneByteChanged(exercise())))?.body,
      '{"code":"403","message":"Signature does not verify","fatal":true}',
    );
    assert.equal(
      (await refuse(exercise({}, TIMES.fresh(NOW), 'globex')))?.body,
      '{"code":"403","message":"business-id names another business","fatal":true}',
    );
    assert.equal(
      (await refuse(exercise({}, TIMES.expired(NOW))))?.body,
      '{"code":"403","message":"Request expired: expires-at has passed","fatal":true}',
    );
    assert.equal((await refuse(exercise({}, TIMES.issuedInFuture(NOW))))?.status, 403);
    assert.match(
      (await refuse(exercise({}, TIMES.withoutOffset(NOW))))?.body ?? '',
      /Request expired: issued-at is not an ISO 8601 time/,
    );
    assert.equal(
      (await refuse(exercise({ exercise: 'portability' })))?.body,
      '{"code":"400","message":"Unsupported rights actions submitted.","fatal":true}',
    );
    assert.match(
      (await refuse(exercise({ status_callback: 'https://10.0.0.8/cb' })))?.body ?? '',
      /"message":"status_callback points to a private/,
    );
    assert.equal(await refuse(exercise()), null, 'and the untouched message passes');
  });
});
