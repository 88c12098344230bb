/**
 * The DRP side of the benchmark (PRODUCT §2.19, issue 37 "Speed"): `acme` joins the network as
 * business `acme-bench`, a bench agent (a fresh Ed25519 key pair, test/helpers/drp-agent.ts, which
 * signs as DRP and OSIRAA do) is registered and pairs, so the `drp-exercise` scenario can post
 * signed exercises with the pair's bearer token.
 */
import { createDrpAgent, type DrpTestAgent, TIMES } from '../test/helpers/drp-agent.js';
import { WORKSPACE } from './seed.js';

/** The business id `acme` takes in the DRP network for the benchmark. */
export const BENCH_BUSINESS_ID = 'acme-bench';

/** What the `drp-exercise` scenario needs: the agent that signs and its pair-wise token. */
export interface DrpSeed {
  agent: DrpTestAgent;
  token: string;
}

async function send(url: string, init: RequestInit, what: string, want: number): Promise<string> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== want) throw new Error(`seeding DRP failed: ${what}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return text;
}

/**
 * Turns DRP on for `acme`, registers the bench agent and pairs it (key setup, DRP §2.05).
 * @param token - an admin API token of the service.
 */
export async function seedDrp(baseUrl: string, token: string): Promise<DrpSeed> {
  const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  await send(
    `${baseUrl}/api/v1/workspaces/${WORKSPACE}/drp`,
    {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ enabled: true, business_id: BENCH_BUSINESS_ID, name: 'Acme (bench)' }),
    },
    'PUT DRP settings',
    200,
  );
  const agent = createDrpAgent('bench-agent');
  await send(
    `${baseUrl}/api/v1/drp/agents`,
    {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        workspace_id: WORKSPACE,
        agent_id: agent.agentId,
        name: 'Bench Agent',
        verify_key: agent.verifyKey,
      }),
    },
    'POST DRP agent',
    201,
  );
  const paired = await send(
    `${baseUrl}/drp/v1/agent/${agent.agentId}`,
    {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: agent.sign(agent.keySetupClaims(BENCH_BUSINESS_ID, TIMES.fresh(new Date()))),
    },
    'DRP key setup',
    200,
  );
  return { agent, token: (JSON.parse(paired) as { token: string }).token };
}
