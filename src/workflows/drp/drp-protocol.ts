import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import type { DrpResult } from '../../modules/drp/drp-failure.types.js';
import type { DrpStatusObject } from '../../modules/drp/drp.types.js';
import { type DrpCaller, drpCaller } from './drp-caller.js';
import { callersRecord, currentStatusObject } from './drp-request-status.js';
import type { ResultsLinks } from './drp-status-facts.js';
import { type ExerciseAnswer, type ExerciseDeps, exerciseDrpRequest } from './exercise-drp-request.js';
import { pairDrpAgent } from './pair-drp-agent.js';
import { revokeDrpRequest } from './revoke-drp-request.js';

/** The DRP routes' use cases (PRODUCT §2.19), bound once (src/services.ts). */
export interface DrpProtocol {
  /** {@link pairDrpAgent}: key setup. */
  pair(pathAgentId: string, body: Uint8Array): Promise<DrpResult<{ agentId: string; token: string }>>;
  /** {@link drpCaller}: the agent an `Authorization` header stands for, at the clock's now. */
  caller(authorization: string | undefined): Promise<DrpResult<DrpCaller>>;
  /** {@link exerciseDrpRequest}: Data Rights Exercise. */
  exercise(authorization: string | undefined, body: Uint8Array): Promise<DrpResult<ExerciseAnswer>>;
  /** Data Rights Status: the caller's record's status object now ({@link currentStatusObject}). */
  status(authorization: string | undefined, requestId: string): Promise<DrpResult<DrpStatusObject>>;
  /** {@link revokeDrpRequest}: Data Rights Revoke. */
  revoke(authorization: string | undefined, requestId: string, body: Uint8Array): Promise<DrpResult<DrpStatusObject>>;
}

/** Binds the DRP routes' use cases to `deps`. */
export function bindDrpProtocol(deps: ExerciseDeps & { db: Executor; clock: Clock; resultsLinks: ResultsLinks }): DrpProtocol {
  const { db, clock } = deps;
  return {
    pair: (pathAgentId, body) => pairDrpAgent(deps, pathAgentId, body),
    caller: (authorization) => drpCaller(db, authorization, clock()),
    exercise: (authorization, body) => exerciseDrpRequest(deps, authorization, body),
    status: async (authorization, requestId) => {
      const now = clock();
      const caller = await drpCaller(db, authorization, now);
      if (!caller.ok) return caller;
      const record = await callersRecord(db, caller.value, requestId);
      if (!record.ok) return record;
      // The agent's own read: a waiting request's user_verification_url is given (deps.verificationUrl).
      return { ok: true, value: await currentStatusObject(deps, record.value.request_id, now) };
    },
    revoke: (authorization, requestId, body) => revokeDrpRequest(deps, authorization, requestId, body),
  };
}
