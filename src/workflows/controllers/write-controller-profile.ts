import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { type ActorRef, actorFields, recordAudit } from '../../modules/audit/audit.repository.js';
import { fieldNames, profileFields, toControllerProfile } from '../../modules/controllers/controller.fns.js';
import { findControllerProfile, writeControllerProfile } from '../../modules/controllers/controller.repository.js';
import type { ControllerProfile, ControllerProfileFields } from '../../modules/controllers/controller.types.js';

/** Concurrent writers of one profile race for the next version; the loser retries. */
const MAX_WRITE_ATTEMPTS = 20;

/** One attempt: @returns the written profile, or null when a concurrent writer took the version. */
async function attempt(
  deps: { db: Executor; clock: Clock },
  workspaceId: string,
  fields: ControllerProfileFields,
  actor: ActorRef,
): Promise<ControllerProfile | null> {
  const { db, clock } = deps;
  const now = toTimestamp(clock());
  return runUnitOfWork(db, async (unit) => {
    const current = await findControllerProfile(unit.tx, workspaceId);
    const version = (current?.version ?? 0) + 1;
    const row = {
      workspace_id: workspaceId,
      profile: JSON.stringify(fields),
      version,
      updated_at: now,
      updated_by: actorFields(actor).actor,
    };
    if (!(await writeControllerProfile(unit.tx, row))) return null;
    recordAudit(unit, {
      ...actorFields(actor),
      action: 'controller.profile_written',
      targetType: 'controller_profile',
      targetId: workspaceId,
      workspaceId,
      details: { version, fields: fieldNames(fields) },
      occurredAt: now,
    });
    return toControllerProfile(row);
  });
}

/**
 * The controller profile of a workspace (PRODUCT §2.10, GDPR Art. 4(7)): who answers for its
 * data, named by every access package and readable letter. Every write is a new version, audited
 * with the field names it sets and its version (no values: the entry stays free of contact data).
 *
 * Replaces the workspace's profile with `input` (absent optional fields are unset), as the
 * next version, audited as `controller.profile_written` by `actor`.
 * @returns the stored profile.
 * @throws Error after {@link MAX_WRITE_ATTEMPTS} lost races (not expected in practice).
 */
export async function writeControllerProfileVersion(
  deps: { db: Executor; clock: Clock },
  workspaceId: string,
  input: ControllerProfileFields,
  actor: ActorRef,
): Promise<ControllerProfile> {
  const fields = profileFields(input);
  for (let i = 1; i <= MAX_WRITE_ATTEMPTS; i++) {
    try {
      const written = await attempt(deps, workspaceId, fields, actor);
      if (written) return written;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * i));
  }
  throw new Error('controller profile write lost every race');
}
