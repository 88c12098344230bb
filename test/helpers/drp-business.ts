/**
 * A business joining the DRP network in a test (PRODUCT §2.19): DRP turned on for workspace
 * `acme` with `business_id` `acme-retail`, the agent registered, and its pair-wise key setup
 * signed by the agent, all through the real routes.
 */
import assert from 'node:assert/strict';
import type { TestApp } from './app.js';
import { type DrpTestAgent, TIMES } from './drp-agent.js';

/** @returns the agent's bearer token. */
export async function joinDrpNetwork(
  t: TestApp,
  admin: string,
  agent: DrpTestAgent,
  options: { agentName: string; businessName?: string; now?: Date },
): Promise<string> {
  const put = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/workspaces/acme/drp',
    headers: { authorization: admin },
    payload: { enabled: true, business_id: 'acme-retail', name: options.businessName ?? 'Acme' },
  });
  assert.equal(put.statusCode, 200, put.body);
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/v1/drp/agents',
    headers: { authorization: admin },
    payload: { workspace_id: 'acme', agent_id: agent.agentId, name: options.agentName, verify_key: agent.verifyKey },
  });
  assert.equal(registered.statusCode, 201, registered.body);
  const paired = await t.app.inject({
    method: 'POST',
    url: `/drp/v1/agent/${agent.agentId}`,
    payload: agent.sign(agent.keySetupClaims('acme-retail', TIMES.fresh(options.now ?? new Date()))),
  });
  assert.equal(paired.statusCode, 200, paired.body);
  return paired.json().token as string;
}
