import type { Executor } from '../../db/executor.js';
import type { Transact } from '../../db/write-batcher.js';
import type { Clock } from '../../lib/clock.js';
import type { IdempotencyService, RecordCodec } from '../../modules/idempotency/idempotency.service.js';
import type { OptOutFiling } from '../../modules/opt-outs/opt-out.types.js';
import type { PolicyService } from '../../modules/policies/policy.service.js';

/**
 * Everything the opt-out use cases may use (wired once in services.ts `optOuts`); each use case
 * takes only the part it needs (`Pick<OptOutDeps, …>`).
 */
export interface OptOutDeps {
  db: Executor;
  clock: Clock;
  /** A unit that sends no statement of its own (every write deferred to the commit): `Database.transactDeferred`. */
  transact: Transact;
  idempotency: IdempotencyService;
  policies: Pick<PolicyService, 'effective'>;
  /** How a filing's outcome is kept for replay (src/http/replay/opt-out-record.ts). */
  optOutRecord: RecordCodec<OptOutFiling>;
  /** `PUBLIC_BASE_URL`: the links a data system is sent to report its task's result (PRODUCT §2.18). */
  publicBaseUrl: string;
}
