import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import type { DrpResult } from '../../modules/drp/drp-failure.types.js';
import { type DrpCaller, drpCaller } from './drp-caller.js';
import { pairDrpAgent } from './pair-drp-agent.js';

/** The DRP routes' use cases (PRODUCT §2.19), bound once (src/services.ts). */
export interface DrpProtocol {
  /** {@link pairDrpAgent}: key setup. */
  pair(pathAgentId: string, body: Uint8Array): Promise<DrpResult<{ agentId: string; token: string }>>;
  /** {@link drpCaller}: the agent an `Authorization` header stands for, at the clock's now. */
  caller(authorization: string | undefined): Promise<DrpResult<DrpCaller>>;
}

/** Binds the DRP routes' use cases to `deps`. */
export function bindDrpProtocol(deps: { db: Executor; clock: Clock }): DrpProtocol {
  return {
    pair: (pathAgentId, body) => pairDrpAgent(deps, pathAgentId, body),
    caller: (authorization) => drpCaller(deps.db, authorization, deps.clock()),
  };
}
