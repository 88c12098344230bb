import { type Bound, bindDeps } from '../../../lib/bind-deps.js';
import type { AgentSubmissionService } from '../../../modules/privacy-center/agent-submission.service.js';
import { type AgentRequestDeps, confirmAgentRequest } from './confirm-agent-request.js';

/**
 * The privacy center's agent path, bound (PRODUCT §2.19, 11 CCR §7063(a)): an authorized agent
 * outside DRP submits, proves its address with a mailed code, and the person confirms or not.
 */
export interface AgentRequests {
  /** The agent's submission and its code mail: {@link AgentSubmissionService.submit}. */
  readonly submit: AgentSubmissionService['submit'];
  /** The agent's code tried; once right the person is mailed: {@link AgentSubmissionService.verify}. */
  readonly verify: AgentSubmissionService['verify'];
  /** The submission a confirmation link opens (the page; decides nothing): {@link AgentSubmissionService.open}. */
  readonly open: AgentSubmissionService['open'];
  /** "Yes, I asked them": {@link confirmAgentRequest}. */
  readonly confirm: Bound<typeof confirmAgentRequest>;
  /** "I did not": {@link AgentSubmissionService.decline}. */
  readonly decline: AgentSubmissionService['decline'];
}

/** Binds the agent path to `deps` (src/services.ts wires it once). */
export function bindAgentRequests(deps: AgentRequestDeps & { agentSubmissions: AgentSubmissionService }): AgentRequests {
  const s = deps.agentSubmissions;
  return {
    submit: (ws, input) => s.submit(ws, input),
    verify: (ws, id, code) => s.verify(ws, id, code),
    open: (ws, id, token) => s.open(ws, id, token),
    confirm: bindDeps(confirmAgentRequest, deps),
    decline: (ws, id, token) => s.decline(ws, id, token),
  };
}
