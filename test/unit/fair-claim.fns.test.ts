/** The fair pick of a delivery claim (issue 23 item 1): caps, round-robin by workspace then endpoint. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type EndpointCandidates, endpointCap, pickFairly } from '../../src/modules/outbound-events/fair-claim.fns.js';

const endpoint = (
  id: string,
  workspace: string,
  due: string,
  count: number,
  in_flight = 0,
  failing = false,
): EndpointCandidates => ({
  endpoint_id: id,
  workspace_id: workspace,
  failing_since: failing ? '2026-01-01T00:00:00.000Z' : null,
  oldest_due: due,
  message_ids: Array.from({ length: count }, (_, i) => `${id}-m${i}`),
  in_flight,
});

describe('pickFairly', () => {
  it('takes one message per endpoint per turn, workspaces taking turns before their endpoints', () => {
    const picked = pickFairly(
      [endpoint('a1', 'A', '1', 2), endpoint('a2', 'A', '2', 2), endpoint('a3', 'A', '3', 2), endpoint('b1', 'B', '4', 2)],
      { limit: 4, perEndpoint: 2 },
    );
    assert.deepEqual(picked, ['a1-m0', 'b1-m0', 'a2-m0', 'b1-m1']);
  });

  it('leaves an endpoint at its cap out, and counts attempts in flight against it', () => {
    const picked = pickFairly([endpoint('slow', 'A', '1', 2, 2), endpoint('half', 'A', '2', 2, 1), endpoint('ok', 'B', '3', 2)], {
      limit: 10,
      perEndpoint: 2,
    });
    assert.deepEqual(picked.sort(), ['half-m0', 'ok-m0', 'ok-m1']);
  });

  it('gives a failing endpoint one attempt in flight', () => {
    assert.equal(endpointCap('2026-01-01T00:00:00.000Z', 4), 1);
    assert.equal(endpointCap(null, 4), 4);
    assert.deepEqual(pickFairly([endpoint('f', 'A', '1', 2, 0, true)], { limit: 10, perEndpoint: 2 }), ['f-m0']);
    assert.deepEqual(pickFairly([endpoint('f', 'A', '1', 2, 1, true)], { limit: 10, perEndpoint: 2 }), []);
  });

  it('never picks more than the limit, and nothing for a limit of 0', () => {
    const many = Array.from({ length: 30 }, (_, i) => endpoint(`e${i}`, `W${i % 3}`, String(i).padStart(2, '0'), 2));
    assert.equal(pickFairly(many, { limit: 7, perEndpoint: 2 }).length, 7);
    assert.equal(pickFairly(many, { limit: 0, perEndpoint: 2 }).length, 0);
    assert.equal(new Set(pickFairly(many, { limit: 100, perEndpoint: 2 })).size, 60);
  });
});
