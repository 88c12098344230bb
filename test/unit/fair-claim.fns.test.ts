/** The fair pick of a delivery claim (issue 23 item 1): caps, round-robin by workspace then endpoint. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type EndpointCandidates, endpointCap, pickFairly } from '../../src/modules/outbound-events/fair-claim.fns.js';

/** The pick as `endpoint×count` in turn order. */
const shares = (picked: Map<string, number>) => [...picked].map(([id, n]) => `${id}×${n}`);
const total = (picked: Map<string, number>) => [...picked.values()].reduce((a, b) => a + b, 0);

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
  due: count,
  in_flight,
});

describe('pickFairly', () => {
  it('takes one message per endpoint per turn, workspaces taking turns before their endpoints', () => {
    const picked = pickFairly(
      [endpoint('a1', 'A', '1', 2), endpoint('a2', 'A', '2', 2), endpoint('a3', 'A', '3', 2), endpoint('b1', 'B', '4', 2)],
      { limit: 4, perEndpoint: 2 },
    );
    assert.deepEqual(shares(picked), ['a1×1', 'b1×2', 'a2×1']);
  });

  it('leaves an endpoint at its cap out, and counts attempts in flight against it', () => {
    const picked = pickFairly([endpoint('slow', 'A', '1', 2, 2), endpoint('half', 'A', '2', 2, 1), endpoint('ok', 'B', '3', 2)], {
      limit: 10,
      perEndpoint: 2,
    });
    assert.deepEqual(shares(picked), ['half×1', 'ok×2']);
  });

  it('gives a failing endpoint one attempt in flight', () => {
    assert.equal(endpointCap('2026-01-01T00:00:00.000Z', 4), 1);
    assert.equal(endpointCap(null, 4), 4);
    assert.deepEqual(shares(pickFairly([endpoint('f', 'A', '1', 2, 0, true)], { limit: 10, perEndpoint: 2 })), ['f×1']);
    assert.deepEqual(shares(pickFairly([endpoint('f', 'A', '1', 2, 1, true)], { limit: 10, perEndpoint: 2 })), []);
    // A deliverer that knows better (a fast endpoint bursts) decides the cap; never past what is due.
    assert.deepEqual(shares(pickFairly([endpoint('x', 'A', '1', 5)], { limit: 10, perEndpoint: 2, capOf: () => 16 })), ['x×5']);
  });

  it('never picks more than the limit, and nothing for a limit of 0', () => {
    const many = Array.from({ length: 30 }, (_, i) => endpoint(`e${i}`, `W${i % 3}`, String(i).padStart(2, '0'), 2));
    assert.equal(total(pickFairly(many, { limit: 7, perEndpoint: 2 })), 7);
    assert.equal(total(pickFairly(many, { limit: 0, perEndpoint: 2 })), 0);
    assert.equal(total(pickFairly(many, { limit: 100, perEndpoint: 2 })), 60);
  });
});
