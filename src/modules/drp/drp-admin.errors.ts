import type { VerifyKeyProblem } from './signed-body.fns.js';

/** Another workspace already holds this `business_id` (409, PRODUCT §2.19). */
export class DrpBusinessIdTakenError extends Error {
  constructor(readonly businessId: string) {
    super('business_id taken');
  }
}

/** The workspace already registered this `agent_id` (409, PRODUCT §2.19). */
export class DrpAgentIdTakenError extends Error {
  constructor(readonly agentId: string) {
    super('agent_id taken');
  }
}

/** No such agent registration in the caller's workspaces (404). */
export class DrpAgentNotFoundError extends Error {}

/** A `verify_key` DRP 1.0 does not take (422 `verify_key_invalid` at `["body","verify_key"]`). */
export class VerifyKeyInvalidError extends Error {
  constructor(
    readonly problem: VerifyKeyProblem,
    readonly input: string,
  ) {
    super('verify_key invalid');
  }
}
