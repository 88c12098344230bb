/**
 * The checks of a DRP signed body in DRP's order (PRODUCT §2.19 "Signed bodies"; DRP 1.0 §3.07):
 * each failing message fails exactly the check named, and messages failing two checks at once
 * prove the order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DrpFailure } from '../../src/modules/drp/drp-failure.types.js';
import {
  checkSignedMessage,
  CLOCK_SKEW_MS,
  MAX_WINDOW_MS,
  type DrpSigner,
  type SignedMessageExpectation,
} from '../../src/modules/drp/message-checks.fns.js';
import { decodeSignedBody, parseVerifyKey, signedMessageDigest } from '../../src/modules/drp/signed-body.fns.js';
import {
  createDrpAgent,
  drpTime,
  fixtureDrpAgent,
  respelled,
  timeClaims,
  TIMES,
  withOneByteChanged,
  type ClaimTimes,
} from '../helpers/drp-agent.js';

const NOW = new Date('2026-03-02T10:00:00.000Z');
const agent = fixtureDrpAgent();
const stranger = createDrpAgent(agent.agentId); // same agent-id, another key
const verifyKey = (text: string) => {
  const parsed = parseVerifyKey(text);
  assert.ok(parsed.ok);
  return parsed.key;
};
const signer: DrpSigner = { agentId: agent.agentId, businessId: 'acme', verifyKey: verifyKey(agent.verifyKey) };
const expectation: SignedMessageExpectation<DrpSigner> = { signers: [signer], now: NOW, envelope: 'required' };

const check = (body: string, expect = expectation) => checkSignedMessage(body, expect);
const failureOf = async (body: string, expect = expectation): Promise<DrpFailure | null> => {
  const result = await check(body, expect);
  return result.ok ? null : result.failure;
};
const setup = (times: ClaimTimes = TIMES.fresh(NOW), fields: Record<string, unknown> = {}) =>
  agent.sign({ ...agent.keySetupClaims('acme', times), ...fields });
const at = (ms: number) => drpTime(NOW.getTime() + ms);

describe('a message that passes every check', () => {
  test('gives the signer, the members as signed, the single-use digest and the times', async () => {
    const body = setup();
    const result = await check(body);
    assert.ok(result.ok);
    assert.equal(result.value.signer, signer);
    assert.deepEqual(result.value.message, agent.keySetupClaims('acme', TIMES.fresh(NOW)));
    const decoded = decodeSignedBody(body);
    assert.ok(decoded.ok);
    assert.equal(result.value.digest, signedMessageDigest(decoded.value));
    assert.equal(result.value.issuedAt, NOW.getTime());
    assert.equal(result.value.expiresAt, NOW.getTime() + 15 * 60_000);
  });

  test('times with Z, +00:00, another offset, or microseconds are all accepted', async () => {
    for (const [issued, expires] of [
      ['2026-03-02T10:00:00Z', '2026-03-02T10:10:00Z'],
      ['2026-03-02T10:00:00.000+00:00', '2026-03-02T10:10:00.000+00:00'],
      ['2026-03-02T12:00:00+02:00', '2026-03-02T03:10:00-0700'],
      ['2026-03-02T10:00:00.000001+00:00', '2026-03-02T10:10:00.999999+00:00'],
    ]) {
      assert.ok(
        (await check(setup(TIMES.fresh(NOW), { 'issued-at': issued, 'expires-at': expires }))).ok,
        `${issued} / ${expires}`,
      );
    }
  });

  test('a replay in another spelling has the same digest (the store refuses it as replayed)', async () => {
    const body = setup();
    const first = await check(body);
    const again = await check(respelled(body));
    assert.ok(first.ok && again.ok);
    assert.equal(again.value.digest, first.value.digest);
    const later = await check(setup(TIMES.fresh(new Date(NOW.getTime() + 1))));
    assert.ok(later.ok);
    assert.notEqual(later.value.digest, first.value.digest, 'a message issued 1 ms later is another message');
  });
});

describe('each check, failing alone, names itself', () => {
  const cases: [name: string, body: () => string, failure: DrpFailure][] = [
    ['1 body not Base64', () => 'not base64 at all!', { reason: 'body_not_base64' }],
    ['2 one byte changed', () => withOneByteChanged(setup()), { reason: 'signature_invalid' }],
    [
      '2 signed by another key',
      () => stranger.sign(stranger.keySetupClaims('acme', TIMES.fresh(NOW))),
      { reason: 'signature_invalid' },
    ],
    ['   the JSON is not an object', () => agent.signBytes(Buffer.from('["agent-id"]')), { reason: 'message_not_object' }],
    ['3 agent-id of another agent', () => setup(TIMES.fresh(NOW), { 'agent-id': 'other-agent' }), { reason: 'agent_mismatch' }],
    ['3 agent-id missing', () => setup(TIMES.fresh(NOW), { 'agent-id': undefined }), { reason: 'agent_mismatch' }],
    [
      '4 for another business',
      () => agent.sign(agent.keySetupClaims('globex', TIMES.fresh(NOW))),
      { reason: 'business_mismatch' },
    ],
    ['4 business-id not a string', () => setup(TIMES.fresh(NOW), { 'business-id': ['acme'] }), { reason: 'business_mismatch' }],
    ['5 issued-at without an offset', () => setup(TIMES.withoutOffset(NOW)), { reason: 'time_invalid', claim: 'issued-at' }],
    [
      '5 issued-at missing',
      () => setup(TIMES.fresh(NOW), { 'issued-at': undefined }),
      { reason: 'time_invalid', claim: 'issued-at' },
    ],
    [
      '5 issued-at a number',
      () => setup(TIMES.fresh(NOW), { 'issued-at': NOW.getTime() }),
      { reason: 'time_invalid', claim: 'issued-at' },
    ],
    [
      '5 issued-at on 30 February',
      () => setup(TIMES.fresh(NOW), { 'issued-at': '2026-02-30T10:00:00Z' }),
      { reason: 'time_invalid', claim: 'issued-at' },
    ],
    ['5 issued-at 5 minutes ahead', () => setup(TIMES.issuedInFuture(NOW)), { reason: 'issued_in_future' }],
    [
      '6 expires-at without an offset',
      () => setup(TIMES.fresh(NOW), { 'expires-at': at(60_000).replace('+00:00', '') }),
      { reason: 'time_invalid', claim: 'expires-at' },
    ],
    ['6 expired', () => setup(TIMES.expired(NOW)), { reason: 'expired' }],
    ['   window over an hour', () => setup(TIMES.windowOverAnHour(NOW)), { reason: 'window_invalid' }],
    [
      '   expires-at before issued-at',
      () => setup(TIMES.fresh(NOW), { 'issued-at': at(30_000), 'expires-at': at(10_000) }),
      { reason: 'window_invalid' },
    ],
  ];
  for (const [name, body, failure] of cases) {
    test(`${name} → ${failure.reason}`, async () => assert.deepEqual(await failureOf(body()), failure));
  }
});

describe('boundaries of the time checks', () => {
  const times = (issuedMs: number, expiresMs: number) =>
    setup(TIMES.fresh(NOW), { 'issued-at': at(issuedMs), 'expires-at': at(expiresMs) });
  test('issued-at up to 60 s ahead passes (clock skew); 1 ms more fails', async () => {
    assert.ok((await check(times(CLOCK_SKEW_MS, CLOCK_SKEW_MS + 60_000))).ok);
    assert.deepEqual(await failureOf(times(CLOCK_SKEW_MS + 1, CLOCK_SKEW_MS + 60_000)), { reason: 'issued_in_future' });
  });
  test('now < expires-at: 1 ms before passes, at the instant it fails', async () => {
    assert.ok((await check(times(-60_000, 1))).ok);
    assert.deepEqual(await failureOf(times(-60_000, 0)), { reason: 'expired' });
  });
  test('a window of exactly 1 h passes; 1 ms more, or none at all, fails', async () => {
    assert.ok((await check(times(-1000, MAX_WINDOW_MS - 1000))).ok);
    assert.deepEqual(await failureOf(times(-1000, MAX_WINDOW_MS - 999)), { reason: 'window_invalid' });
    assert.deepEqual(await failureOf(times(1000, 1000)), { reason: 'window_invalid' });
  });
});

describe("DRP's order: a message failing two checks fails the earlier one", () => {
  const pairs: [name: string, body: () => string, failure: DrpFailure][] = [
    [
      'bad signature and another business',
      () => withOneByteChanged(agent.sign(agent.keySetupClaims('globex', TIMES.fresh(NOW)))),
      { reason: 'signature_invalid' },
    ],
    ['another key and not an object', () => stranger.signBytes(Buffer.from('[]')), { reason: 'signature_invalid' }],
    [
      'another agent and another business',
      () => setup(TIMES.fresh(NOW), { 'agent-id': 'x', 'business-id': 'globex' }),
      { reason: 'agent_mismatch' },
    ],
    ['another agent and expired', () => setup(TIMES.expired(NOW), { 'agent-id': 'x' }), { reason: 'agent_mismatch' }],
    [
      'another business and expired',
      () => agent.sign(agent.keySetupClaims('globex', TIMES.expired(NOW))),
      { reason: 'business_mismatch' },
    ],
    [
      'another business and no offset',
      () => agent.sign(agent.keySetupClaims('globex', TIMES.withoutOffset(NOW))),
      { reason: 'business_mismatch' },
    ],
    // OSIRAA checks expires-at before issued-at; DRP §3.07 (and this service) the other way round.
    [
      'issued in the future and expired',
      () => setup(TIMES.fresh(NOW), { 'issued-at': at(5 * 60_000), 'expires-at': at(-60_000) }),
      { reason: 'issued_in_future' },
    ],
    [
      'issued-at without offset and expired',
      () => setup(TIMES.fresh(NOW), { 'issued-at': '2026-03-02T09:00:00', 'expires-at': at(-60_000) }),
      { reason: 'time_invalid', claim: 'issued-at' },
    ],
    [
      'expired and a window over an hour',
      () => setup(TIMES.fresh(NOW), { 'issued-at': at(-3 * 3_600_000), 'expires-at': at(-60_000) }),
      { reason: 'expired' },
    ],
    [
      'issued in the future and a window over an hour',
      () => setup(TIMES.fresh(NOW), { 'issued-at': at(120_000), 'expires-at': at(120_000 + 2 * 3_600_000) }),
      { reason: 'issued_in_future' },
    ],
  ];
  for (const [name, body, failure] of pairs) {
    test(`${name} → ${failure.reason}`, async () => assert.deepEqual(await failureOf(body()), failure));
  }
});

describe('key setup: every registration of the path agent-id may have signed it', () => {
  const inA: DrpSigner = { agentId: agent.agentId, businessId: 'acme', verifyKey: verifyKey(agent.verifyKey) };
  const inB: DrpSigner = { agentId: agent.agentId, businessId: 'globex', verifyKey: verifyKey(stranger.verifyKey) };
  const sameKeyInC: DrpSigner = { agentId: agent.agentId, businessId: 'initech', verifyKey: verifyKey(agent.verifyKey) };
  const expect = { signers: [inA, inB, sameKeyInC], now: NOW, envelope: 'required' as const };

  test('the registration whose key verifies and whose business the message names is the signer', async () => {
    const viaA = await check(agent.sign(agent.keySetupClaims('acme', TIMES.fresh(NOW))), expect);
    const viaB = await check(stranger.sign(stranger.keySetupClaims('globex', TIMES.fresh(NOW))), expect);
    const viaC = await check(agent.sign(agent.keySetupClaims('initech', TIMES.fresh(NOW))), expect);
    assert.ok(viaA.ok && viaB.ok && viaC.ok);
    assert.equal(viaA.value.signer, inA);
    assert.equal(viaB.value.signer, inB);
    assert.equal(viaC.value.signer, sameKeyInC);
  });

  test('a key naming a business that registered the agent under another key is business_mismatch', async () => {
    assert.deepEqual(await failureOf(agent.sign(agent.keySetupClaims('globex', TIMES.fresh(NOW))), expect), {
      reason: 'business_mismatch',
    });
  });

  test('no registration at all: nothing verifies', async () => {
    assert.deepEqual(await failureOf(setup(), { ...expect, signers: [] }), { reason: 'signature_invalid' });
  });
});

describe("revoke's envelope (when_present): DRP §2.04's body is {reason} alone", () => {
  const revoke = { ...expectation, envelope: 'when_present' as const };
  test('{reason} alone passes, with no times', async () => {
    const result = await check(agent.sign({ reason: 'changed my mind' }), revoke);
    assert.ok(result.ok);
    assert.equal(result.value.signer, signer);
    assert.deepEqual([result.value.issuedAt, result.value.expiresAt], [null, null]);
  });
  const cases: [string, Record<string, unknown>, DrpFailure][] = [
    ['another agent-id', { 'agent-id': 'x' }, { reason: 'agent_mismatch' }],
    ['another business-id', { 'business-id': 'globex' }, { reason: 'business_mismatch' }],
    ['issued-at alone, ahead', { 'issued-at': at(5 * 60_000) }, { reason: 'issued_in_future' }],
    ['expires-at alone, passed', { 'expires-at': at(-1) }, { reason: 'expired' }],
    ['expires-at alone, no offset', { 'expires-at': '2026-03-02T10:30:00' }, { reason: 'time_invalid', claim: 'expires-at' }],
    ['both times, over an hour', timeClaims(TIMES.windowOverAnHour(NOW)), { reason: 'window_invalid' }],
  ];
  for (const [name, fields, failure] of cases) {
    test(`a claim given is checked: ${name} → ${failure.reason}`, async () => {
      assert.deepEqual(await failureOf(agent.sign({ reason: 'r', ...fields }), revoke), failure);
    });
  }
});
