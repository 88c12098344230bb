import type { Principal } from '../../modules/principals/principal.js';
import type { DrpCaller } from './drp-caller.js';

/**
 * The principal an agent files as (PRODUCT §2.19: audited `{type: "agent", id, name}`, actor id
 * `agent:<agent-id>`), in the one workspace it is registered in.
 */
export function agentPrincipalOf(workspaceId: string, agent: { readonly agent_id: string; readonly name: string }): Principal {
  return {
    id: `agent:${agent.agent_id}`,
    name: agent.name,
    scopes: new Set(),
    workspaces: new Set([workspaceId]),
  };
}

/** {@link agentPrincipalOf} the agent behind a bearer token. */
export function agentPrincipal(caller: Pick<DrpCaller, 'agent'>): Principal {
  return agentPrincipalOf(caller.agent.workspace_id, caller.agent);
}
