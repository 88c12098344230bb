import { TIMES } from '../test/helpers/drp-agent.js';
import { BENCH_BUSINESS_ID, type DrpSeed } from './drp-seed.js';
import type { Scenario } from './scenarios.js';

/**
 * `POST /drp/v1/data-rights-request` (PRODUCT §2.19, issue 37 "Speed"): a DRP deletion exercise
 * signed with the bench agent's Ed25519 key, a **new** `agent-request-id` and address on every
 * request, `email_verified: true` (so it is filed at once as a privacy request, as `create`
 * files one). The service checks the signature, the six checks, single use and the claims, then
 * files. The client signs in autocannon's `setupRequest` (≈ 0.1 ms; the signature is made fresh
 * for every message, since a replay would be a 409). Right: 200 with a status object whose
 * `status` is `open` or `in_progress`.
 */
export function drpExerciseScenario(drp: DrpSeed, runId: string): Scenario {
  let n = 0;
  return {
    id: 'drp-exercise',
    label: 'POST DRP exercise (signed, new)',
    target: 'service',
    request: {
      method: 'POST',
      path: '/drp/v1/data-rights-request',
      headers: { authorization: `Bearer ${drp.token}`, 'content-type': 'text/plain' },
      setupRequest: (request) => {
        n += 1;
        const claims = drp.agent.exerciseClaims(BENCH_BUSINESS_ID, TIMES.fresh(new Date()), {
          'agent-request-id': `bench-${runId}-${n}`,
          email: `bench-drp-${runId}-${n}@example.com`,
        });
        return { ...request, body: drp.agent.sign(claims) };
      },
    },
    check: (_headers, body, status) => {
      if (status !== 200) return `HTTP ${status}: ${body.slice(0, 200)}`;
      return /"status":"(open|in_progress)"/.test(body) ? null : `not filed: ${body.slice(0, 200)}`;
    },
  };
}
