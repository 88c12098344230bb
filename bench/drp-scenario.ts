import { TIMES } from '../test/helpers/drp-agent.js';
import { BENCH_BUSINESS_ID, type DrpSeed } from './drp-seed.js';
import type { Scenario } from './scenarios.js';

/**
 * Bodies signed before the run, per second of warm-up and measured time: above any rate this row
 * reached here (≈ 2 200 requests/s), so the pool lasts the run; when it runs out the client
 * signs on the fly as it used to.
 */
const PRESIGNED_PER_SECOND = 4000;

/**
 * `POST /drp/v1/data-rights-request` (PRODUCT §2.19, issue 37 "Speed"): a DRP deletion exercise
 * signed with the bench agent's Ed25519 key, a **new** `agent-request-id` and address on every
 * request, `email_verified: true` (so it is filed at once as a privacy request, as `create`
 * files one). The service checks the signature, the six checks, single use and the claims, then
 * files. The bodies are signed in `prepare`, before the warm-up (≈ 65 µs each, valid 15 minutes):
 * signed in autocannon's `setupRequest` instead, the load generator took ≈ 0.1 core from the
 * service on the same two cores, which `create`'s client (a JSON text) does not. Each body is
 * sent once (a replay would be a 409). Right: 200 with a status object whose `status` is `open`
 * or `in_progress`.
 */
export function drpExerciseScenario(drp: DrpSeed, runId: string): Scenario {
  let n = 0;
  let presigned: string[] = [];
  const signed = () => {
    n += 1;
    const claims = drp.agent.exerciseClaims(BENCH_BUSINESS_ID, TIMES.fresh(new Date()), {
      'agent-request-id': `bench-${runId}-${n}`,
      email: `bench-drp-${runId}-${n}@example.com`,
    });
    return drp.agent.sign(claims);
  };
  return {
    id: 'drp-exercise',
    label: 'POST DRP exercise (signed, new)',
    target: 'service',
    prepare: (load) => {
      presigned = Array.from({ length: Math.ceil((load.warmupSec + load.durationSec) * PRESIGNED_PER_SECOND) }, signed);
      presigned.reverse();
    },
    request: {
      method: 'POST',
      path: '/drp/v1/data-rights-request',
      headers: { authorization: `Bearer ${drp.token}`, 'content-type': 'text/plain' },
      setupRequest: (request) => ({ ...request, body: presigned.pop() ?? signed() }),
    },
    check: (_headers, body, status) => {
      if (status !== 200) return `HTTP ${status}: ${body.slice(0, 200)}`;
      return /"status":"(open|in_progress)"/.test(body) ? null : `not filed: ${body.slice(0, 200)}`;
    },
  };
}
