import { findOptOutById } from '../../modules/opt-outs/opt-out.repository.js';
import { toOptOutResource } from '../../modules/opt-outs/opt-out.fns.js';
import type { OptOutResource } from '../../modules/opt-outs/opt-out.types.js';
import type { OptOutDeps } from './deps.js';

/** One opt-out, or null (the caller decides whether the principal may see its workspace). */
export async function readOptOut(deps: Pick<OptOutDeps, 'db'>, id: string): Promise<OptOutResource | null> {
  const row = await findOptOutById(deps.db, id);
  return row ? toOptOutResource(row) : null;
}
