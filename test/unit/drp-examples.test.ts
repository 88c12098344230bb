/**
 * Material we did not write, through the whole pure path (check → claims → plan):
 * - DRP 1.0's own examples (test/fixtures/drp/drp-1.0-examples.json, copied byte for byte from
 *   `data-rights-protocol.md`). None carries a signature (DRP publishes no signed example), so
 *   the test agent signs them; `openapi.yaml` at the same commit describes DRP 0.4 (JWT
 *   identities, `/exercise`) and has no 1.0 message to use.
 * - OSIRAA's messages, built and signed by Python exactly as OSIRAA does
 *   (test/fixtures/drp/osiraa-signed.json, with OSIRAA's published development key pair).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { validateExerciseClaims, validateKeySetupClaims, validateRevokeClaims } from '../../src/modules/drp/claims.fns.js';
import { drpRefusal } from '../../src/modules/drp/drp-errors.fns.js';
import { planExercise } from '../../src/modules/drp/exercise-plan.fns.js';
import { checkSignedMessage, type DrpSigner } from '../../src/modules/drp/message-checks.fns.js';
import { newPairingToken } from '../../src/modules/drp/pairing-token.fns.js';
import { parseVerifyKey } from '../../src/modules/drp/signed-body.fns.js';
import { isForbiddenAddress } from '../../src/modules/outbound-events/address-guard.js';
import { createDrpAgent, drpTime, fixtureDrpAgent } from '../helpers/drp-agent.js';

const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../fixtures/drp/${name}`, import.meta.url), 'utf8')) as T;
const strict = { allowPrivate: false, isForbiddenAddress };
const open = { allowPrivate: true, isForbiddenAddress };
const signerOf = (agentId: string, businessId: string, verifyKey: string): DrpSigner => {
  const parsed = parseVerifyKey(verifyKey);
  assert.ok(parsed.ok);
  return { agentId, businessId, verifyKey: parsed.key };
};

describe("DRP 1.0's examples (data-rights-protocol.md @ca1f837)", () => {
  const { examples } = read<{ examples: { name: string; section: string; text: string }[] }>('drp-1.0-examples.json');
  const text = (name: string) => examples.find((e) => e.name === name)?.text ?? assert.fail(name);
  const NOW = new Date('2026-03-02T10:00:00.000Z');
  const aa = createDrpAgent('aa-id');
  const expect = { signers: [signerOf('aa-id', 'cb-id', aa.verifyKey)], now: NOW, envelope: 'required' as const };
  const withTimes = (json: string) =>
    json.replaceAll(
      '"<ISO 8601 Timestamp>",\n  "expires-at": "<ISO 8601 Timestamp>"',
      `"${drpTime(NOW.getTime())}",\n  "expires-at": "${drpTime(NOW.getTime() + 600_000)}"`,
    );

  test('§2.05 key setup, signed as written: its placeholder times fail issued-at (403, no body)', async () => {
    const checked = await checkSignedMessage(aa.signBytes(Buffer.from(text('key_setup_request'))), expect);
    assert.ok(!checked.ok);
    assert.deepEqual(checked.failure, { reason: 'time_invalid', claim: 'issued-at' });
    assert.deepEqual(drpRefusal(checked.failure, 'key_setup'), { status: 403, body: null, headers: {} });
  });

  test('§2.05 key setup with real times in its placeholders passes every check and its claims', async () => {
    const checked = await checkSignedMessage(aa.signBytes(Buffer.from(withTimes(text('key_setup_request')))), expect);
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.deepEqual(validateKeySetupClaims(checked.value.message), { ok: true, value: null });
    // §2.05.1's answer has the same members as the one this service gives.
    const answer = JSON.parse(text('key_setup_response')) as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(answer),
      Object.keys({ 'agent-id': checked.value.message['agent-id'], token: newPairingToken() }),
    );
  });

  test('§2.01 exercise as written is not JSON (comments, a missing comma): message_not_object, a 400', async () => {
    const checked = await checkSignedMessage(aa.signBytes(Buffer.from(text('exercise_request'))), expect);
    assert.ok(!checked.ok);
    assert.deepEqual(checked.failure, { reason: 'message_not_object' });
    assert.equal(drpRefusal(checked.failure, 'other').status, 400);
  });

  test('§2.01 exercise with its comments dropped, the comma added and times filled in: valid, then denied for want of an email', async () => {
    const repaired = withTimes(text('exercise_request'))
      .split('\n')
      .filter((line) => !line.trim().startsWith('#'))
      .join('\n')
      .replace('"drp.version": "1.0"\n', '"drp.version": "1.0",\n');
    const checked = await checkSignedMessage(aa.signBytes(Buffer.from(repaired)), expect);
    assert.ok(checked.ok, JSON.stringify(checked));
    const claims = validateExerciseClaims(checked.value.message, strict);
    assert.ok(claims.ok, JSON.stringify(claims));
    assert.deepEqual(
      [
        claims.value.exercise,
        claims.value.regime,
        claims.value.agentRequestId,
        claims.value.relationships,
        claims.value.statusCallback,
      ],
      ['sale:opt-out', 'ccpa', 'foo', ['customer', 'marketing'], 'https://dsr-agent.example.com/update_status'],
    );
    const plan = planExercise(claims.value, {
      requestId: 'c789ff35-7644-4ceb-9981-4b35c264aac3',
      receivedAt: NOW.toISOString(),
      agent: { agentId: 'aa-id', name: 'AA', confirmWithConsumer: false },
      supportedActions: ['access', 'deletion', 'sale:opt-out', 'sale:opt-in'],
    });
    assert.equal(plan.outcome === 'denied' && plan.reason, 'insuf_verification');
  });

  test('§2.04 revoke passes as written (envelope claims only when present)', async () => {
    const checked = await checkSignedMessage(aa.signBytes(Buffer.from(text('revoke_request'))), {
      ...expect,
      envelope: 'when_present',
    });
    assert.ok(checked.ok);
    assert.deepEqual(validateRevokeClaims(checked.value.message, 'any'), {
      ok: true,
      value: { reason: "I don't want my account deleted" },
    });
  });

  test("§3.06's error example is this service's body for an unsupported action, plus fatal", async () => {
    const { fatal, ...withoutFatal } = drpRefusal({ reason: 'exercise_unsupported' }, 'other').body ?? assert.fail();
    assert.deepEqual(withoutFatal, JSON.parse(text('error')));
    assert.equal(fatal, true);
  });

  test('§2.06.1 agent information answers {}', async () => {
    assert.deepEqual(JSON.parse(text('agent_information_response')), {});
  });
});

describe('OSIRAA-signed messages through the whole pure path', () => {
  const fixture = read<{
    agent_id: string;
    business_id: string;
    verify_key: string;
    issued_at: string;
    expires_at: string;
    messages: { name: string; body: string }[];
  }>('osiraa-signed.json');
  const body = (name: string) => fixture.messages.find((m) => m.name === name)?.body ?? assert.fail(name);
  const now = new Date(Date.parse(fixture.issued_at) + 60_000);
  const expect = {
    signers: [signerOf(fixture.agent_id, fixture.business_id, fixture.verify_key)],
    now,
    envelope: 'required' as const,
  };

  test('key setup: passes, claims valid', async () => {
    const checked = await checkSignedMessage(body('key_setup'), expect);
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.ok(validateKeySetupClaims(checked.value.message).ok);
  });

  test("exercise: passes; OSIRAA's default callback (http://127.0.0.1:8003) is refused unless private networks are allowed", async () => {
    const checked = await checkSignedMessage(body('exercise'), expect);
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.deepEqual(validateExerciseClaims(checked.value.message, strict), {
      ok: false,
      failure: { reason: 'status_callback_invalid', problem: 'scheme' },
    });
    const claims = validateExerciseClaims(checked.value.message, open);
    assert.ok(claims.ok);
    assert.deepEqual(
      [claims.value.exercise, claims.value.regime, claims.value.email, claims.value.emailVerified],
      ['deletion', 'voluntary', 'zoe.doe@example.com', true],
    );
    assert.ok(!JSON.stringify(claims.value).includes('Zo'), 'the name claim is not kept');
  });

  test('revoke ({reason} alone, as OSIRAA sends it): passes under when_present', async () => {
    const checked = await checkSignedMessage(body('revoke'), { ...expect, envelope: 'when_present' });
    assert.ok(checked.ok);
    assert.deepEqual(validateRevokeClaims(checked.value.message, 'r1'), {
      ok: true,
      value: { reason: "I don't want my account deleted." },
    });
  });

  test("at expires-at exactly the message is refused (OSIRAA's PIP would still take it: it refuses only after)", async () => {
    const atExpiry = await checkSignedMessage(body('exercise'), { ...expect, now: new Date(fixture.expires_at) });
    assert.deepEqual(atExpiry, { ok: false, failure: { reason: 'expired' } });
  });

  test('for another business, or checked by a PIP that registered another key for the agent: refused', async () => {
    assert.deepEqual(
      await checkSignedMessage(body('exercise'), {
        ...expect,
        signers: [signerOf(fixture.agent_id, 'acme', fixture.verify_key)],
      }),
      {
        ok: false,
        failure: { reason: 'business_mismatch' },
      },
    );
    const other = createDrpAgent(fixture.agent_id);
    assert.deepEqual(
      await checkSignedMessage(body('exercise'), {
        ...expect,
        signers: [signerOf(fixture.agent_id, fixture.business_id, other.verifyKey)],
      }),
      {
        ok: false,
        failure: { reason: 'signature_invalid' },
      },
    );
  });
});

describe("docs/drp.md's signed example", () => {
  const doc = readFileSync(new URL('../../docs/drp.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('### A signed example'));
  const blocks = [...section.matchAll(/```(?:text|json)\n(.*)\n```/g)].map((m) => m[1] as string);
  const [verifyKey, message, body] = blocks as [string, string, string];

  test('is signed by the committed test key, over exactly the message shown, and passes every check inside its window', async () => {
    const agent = fixtureDrpAgent();
    assert.equal(verifyKey, agent.verifyKey);
    assert.equal(Buffer.from(body, 'base64').subarray(64).toString('utf8'), message);
    const expect = {
      signers: [signerOf(agent.agentId, 'acme-retail', verifyKey)],
      now: new Date('2026-03-02T10:05:00Z'),
      envelope: 'required' as const,
    };
    const checked = await checkSignedMessage(body, expect);
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.ok(validateExerciseClaims(checked.value.message, strict).ok);
    assert.equal(agent.sign(JSON.parse(message) as Record<string, unknown>), body, 'the test agent makes the same body again');
  });

  test('and, as the page says, is refused as expired after its window', async () => {
    const expect = {
      signers: [signerOf('test-agent-01', 'acme-retail', verifyKey)],
      now: new Date('2026-03-02T10:15:00Z'),
      envelope: 'required' as const,
    };
    assert.deepEqual(await checkSignedMessage(body, expect), { ok: false, failure: { reason: 'expired' } });
  });
});
