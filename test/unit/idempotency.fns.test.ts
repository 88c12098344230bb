/**
 * Idempotency-Key handling (PRODUCT.md §2.3; IETF draft-ietf-httpapi-idempotency-key-header):
 * the request fingerprint and what to do with an existing record for the same key.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  decideOnExisting,
  fingerprint,
  IDEMPOTENCY_TTL_MS,
  IN_FLIGHT_LEASE_MS,
} from '../../src/modules/idempotency/idempotency.fns.js';

const body = {
  request_type: 'access',
  scope: ['user.account', 'user.contact.email'],
  subject_id: '583231',
  subject_provider: 'github',
  workspace_id: 'acme',
  client_request_id: 'req-20240611-0001',
  intake_ref: 'https://support.example.com/tickets/4821',
  nested: { b: [1, { y: 2, x: 1 }], a: null },
};

describe('fingerprint', () => {
  test('is a SHA-256 hex digest and deterministic', () => {
    assert.match(fingerprint(body), /^[0-9a-f]{64}$/);
    assert.equal(fingerprint(body), fingerprint(structuredClone(body)));
  });

  test('ignores key order at every depth', () => {
    const reordered = {
      nested: { a: null, b: [1, { x: 1, y: 2 }] },
      intake_ref: body.intake_ref,
      client_request_id: body.client_request_id,
      workspace_id: body.workspace_id,
      subject_provider: body.subject_provider,
      subject_id: body.subject_id,
      scope: [...body.scope],
      request_type: body.request_type,
    };
    assert.equal(fingerprint(reordered), fingerprint(body));
  });

  test('whitespace-equivalent JSON texts give the same fingerprint', () => {
    const compact = JSON.parse(JSON.stringify(body));
    const spaced = JSON.parse(JSON.stringify(body, null, 4).replaceAll('\n', '\r\n\t '));
    assert.equal(fingerprint(spaced), fingerprint(compact));
    assert.equal(fingerprint(JSON.parse('{ "a" : [ 1 , 2 ] }')), fingerprint(JSON.parse('{"a":[1,2]}')));
  });

  // Each change must give a different fingerprint from `body`'s.
  const changes: readonly [string, (b: typeof body) => unknown][] = [
    ['top-level string value', (b) => ({ ...b, subject_id: '583232' })],
    ['case of a value', (b) => ({ ...b, workspace_id: 'Acme' })],
    ['trailing space inside a value', (b) => ({ ...b, workspace_id: 'acme ' })],
    ['array order', (b) => ({ ...b, scope: [...b.scope].reverse() })],
    ['array item added', (b) => ({ ...b, scope: [...b.scope, 'user.name'] })],
    ['array item duplicated', (b) => ({ ...b, scope: [...b.scope, b.scope[0]] })],
    ['nested array order', (b) => ({ ...b, nested: { ...b.nested, b: [{ y: 2, x: 1 }, 1] } })],
    ['nested number', (b) => ({ ...b, nested: { ...b.nested, b: [1, { y: 3, x: 1 }] } })],
    ['number vs string', (b) => ({ ...b, nested: { ...b.nested, b: ['1', { y: 2, x: 1 }] } })],
    ['null vs absent key', (b) => ({ ...b, nested: { b: b.nested.b } })],
    ['key added', (b) => ({ ...b, extra: true })],
    ['value moved to another key', (b) => ({ ...b, subject_id: b.subject_provider, subject_provider: b.subject_id })],
  ];
  for (const [name, change] of changes) {
    test(`changes with: ${name}`, () => {
      assert.notEqual(fingerprint(change(structuredClone(body))), fingerprint(body));
    });
  }

  test('an array is not equivalent to an object with index keys', () => {
    assert.notEqual(fingerprint({ a: ['x', 'y'] }), fingerprint({ a: { 0: 'x', 1: 'y' } }));
  });
});

describe('decideOnExisting', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');
  const ms = (offset: number) => new Date(now.getTime() + offset).toISOString();
  const FP = fingerprint(body);
  const OTHER = fingerprint({ ...body, subject_id: 'other' });

  function record(state: string, createdAgoMs: number, fp = FP, expiresAt?: string) {
    return {
      fingerprint: fp,
      state,
      created_at: ms(-createdAgoMs),
      expires_at: expiresAt ?? ms(IDEMPOTENCY_TTL_MS - createdAgoMs),
    };
  }

  test('the constants are 24 h and 60 s', () => {
    assert.equal(IDEMPOTENCY_TTL_MS, 86_400_000);
    assert.equal(IN_FLIGHT_LEASE_MS, 60_000);
  });

  // [name, record, request fingerprint, expected]
  const cases: readonly [string, ReturnType<typeof record>, string, string][] = [
    ['completed, same body → replay', record('completed', 1_000), FP, 'replay'],
    ['completed, 1 ms before expiry → replay', record('completed', IDEMPOTENCY_TTL_MS - 1), FP, 'replay'],
    ['completed, exactly at expiry → take_over', record('completed', IDEMPOTENCY_TTL_MS), FP, 'take_over'],
    ['completed, past expiry → take_over', record('completed', IDEMPOTENCY_TTL_MS + 1), FP, 'take_over'],
    [
      'expired with a different body → take_over (not reused)',
      record('completed', IDEMPOTENCY_TTL_MS + 1, OTHER),
      FP,
      'take_over',
    ],
    ['completed, different body → reused', record('completed', 1_000, OTHER), FP, 'reused'],
    ['in_flight within the lease → in_flight', record('in_flight', 1_000), FP, 'in_flight'],
    ['in_flight 1 ms before the lease ends → in_flight', record('in_flight', IN_FLIGHT_LEASE_MS - 1), FP, 'in_flight'],
    ['in_flight exactly at the lease end → take_over', record('in_flight', IN_FLIGHT_LEASE_MS), FP, 'take_over'],
    ['abandoned in_flight past the lease → take_over', record('in_flight', IN_FLIGHT_LEASE_MS + 5_000), FP, 'take_over'],
    [
      'abandoned in_flight with a different body → take_over',
      record('in_flight', IN_FLIGHT_LEASE_MS + 1, OTHER),
      FP,
      'take_over',
    ],
    ['in_flight within the lease, different body → reused', record('in_flight', 1_000, OTHER), FP, 'reused'],
    ['a completed record older than the lease is still replayed', record('completed', IN_FLIGHT_LEASE_MS * 10), FP, 'replay'],
    ['expires_at before created_at + TTL is honoured', record('completed', 1_000, FP, ms(-1)), FP, 'take_over'],
  ];
  for (const [name, existing, requestFingerprint, expected] of cases) {
    test(name, () => {
      assert.equal(decideOnExisting(existing, requestFingerprint, now), expected);
    });
  }
});
