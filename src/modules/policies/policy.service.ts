import { runUnitOfWork } from '../../db/unit-of-work.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import { type Clock, timestampSource, toTimestamp } from '../../lib/clock.js';
import { deepFreeze } from '../../lib/deep-freeze.js';
import { createTtlCache, EXTERNAL_CHECK_MS } from '../../lib/ttl-cache.js';
import { type ActorRef, actorFields, recordAudit } from '../audit/audit.repository.js';
import * as repo from './policy.repository.js';
import type { Policy, PolicyLayerSettings, PolicySources } from './policy.types.js';
import { effectiveVersion, mergePolicy, normalizeRepository } from './policy-merge.fns.js';
import { readStoredSettings } from './stored-layer.fns.js';

/** The effective policy of one repository (PRODUCT.md §2.4). */
export interface EffectivePolicy {
  workspace_id: string;
  repository: string;
  policy: Policy;
  sources: PolicySources;
  version: string;
  evaluated_at: string;
}

/**
 * One stored layer. `repository` is null for the workspace layer. `settings` are the fields in
 * force: a stored field the API would refuse today is left out (readStoredSettings).
 */
export interface PolicyLayer {
  workspace_id: string;
  repository: string | null;
  settings: PolicyLayerSettings;
  version: number;
  updated_at: string;
}

function toLayer(row: repo.PolicyLayerRow): PolicyLayer {
  return {
    workspace_id: row.workspace_id,
    repository: row.repository === '' ? null : row.repository,
    settings: readStoredSettings(row.settings),
    version: row.version,
    updated_at: row.updated_at,
  };
}

/** What the merged-policy cache holds per (workspace, repository): the effective policy less the request's fields. */
type MergedEntry = Omit<EffectivePolicy, 'repository' | 'evaluated_at' | 'workspace_id'>;

/** Concurrent writers of one layer race for the next version number; the loser retries. */
const MAX_WRITE_ATTEMPTS = 20;

/** On PostgreSQL, how long a merged policy is served before the layers are read again (ms). */
export const MERGED_TTL_MS = 1_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Policy layers and their stricter-wins merge. Every write is a new version, kept in
 * `policy_layer_versions`, and audited.
 */
export function createPolicyService(deps: { db: Executor; clock: Clock; externalChanges?: (() => number) | undefined }) {
  const { db, clock } = deps;
  const evaluatedAt = timestampSource(clock);
  // Effective policies are read on every change event and policy lookup. Writes here clear the
  // cache; writes by another process are seen within EXTERNAL_CHECK_MS on SQLite (data version), within
  // MERGED_TTL_MS on PostgreSQL.
  const merged = createTtlCache<MergedEntry>({
    ttlMs: deps.externalChanges ? 60_000 : MERGED_TTL_MS,
    maxEntries: 10_000,
    ...(deps.externalChanges ? { generation: deps.externalChanges, generationCheckMs: EXTERNAL_CHECK_MS } : {}),
  });

  async function writeVersion(workspaceId: string, repository: string, settings: PolicyLayerSettings | null, actor: ActorRef) {
    const now = toTimestamp(clock());
    return runUnitOfWork(db, async (unit) => {
      const { tx } = unit;
      const serialized = settings === null ? null : JSON.stringify(settings);
      if (serialized === null && !(await repo.deleteLayer(tx, workspaceId, repository))) return null;
      const version = (await repo.latestLayerVersion(tx, workspaceId, repository)) + 1;
      await repo.insertLayerVersion(tx, {
        workspace_id: workspaceId,
        repository,
        version,
        settings: serialized,
        changed_at: now,
        changed_by: actorFields(actor).actor,
      });
      if (serialized !== null)
        await repo.upsertLayer(tx, {
          workspace_id: workspaceId,
          repository,
          settings: serialized,
          version,
          updated_at: now,
          updated_by: actorFields(actor).actor,
        });
      const action = serialized === null ? 'policy.layer_deleted' : 'policy.layer_written';
      recordAudit(unit, {
        ...actorFields(actor),
        action,
        targetType: 'policy_layer',
        targetId: `${workspaceId}/${repository}`,
        workspaceId,
        details: { version },
        occurredAt: now,
      });
      return {
        workspace_id: workspaceId,
        repository: repository === '' ? null : repository,
        settings: settings ?? {},
        version,
        updated_at: now,
      };
    });
  }

  async function mergeLayers(workspaceId: string, key: string) {
    const rows = await repo.findLayers(db, workspaceId, key);
    const workspace = rows.find((r) => r.repository === '');
    const repositoryLayer = rows.find((r) => r.repository === key && key !== '');
    const result = mergePolicy({
      workspace: workspace ? readStoredSettings(workspace.settings) : null,
      repository: repositoryLayer ? readStoredSettings(repositoryLayer.settings) : null,
    });
    return { ...result, version: effectiveVersion(workspace?.version ?? 0, repositoryLayer?.version ?? 0) };
  }

  const cacheKey = (workspaceId: string, repositoryKey: string) => `${workspaceId}\u0000${repositoryKey}`;

  const present = (workspaceId: string, repository: string, result: MergedEntry): EffectivePolicy => ({
    workspace_id: workspaceId,
    repository,
    ...result,
    evaluated_at: evaluatedAt(),
  });

  /** Retries when a concurrent writer took the same version number (primary key conflict). */
  async function write(workspaceId: string, repository: string, settings: PolicyLayerSettings | null, actor: ActorRef) {
    for (let attempt = 1; ; attempt++) {
      try {
        const written = await writeVersion(workspaceId, repository, settings, actor);
        merged.clear();
        return written;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= MAX_WRITE_ATTEMPTS) throw error;
        await pause(Math.random() * 5 * attempt);
      }
    }
  }

  return {
    /** Merges defaults < workspace < repository. `repository` is matched case-insensitively. */
    async effective(workspaceId: string, repository: string): Promise<EffectivePolicy> {
      const key = normalizeRepository(repository);
      let result = merged.get(cacheKey(workspaceId, key));
      if (!result) {
        // Frozen, not copied per call: every caller shares it and none may change it.
        result = deepFreeze(await mergeLayers(workspaceId, key));
        merged.set(cacheKey(workspaceId, key), result);
      }
      return present(workspaceId, repository, result);
    },

    /**
     * {@link effective} when the merge is cached (no database read), else undefined: then call
     * `effective`. Lets a hot read path answer without a promise.
     */
    cachedEffective(workspaceId: string, repository: string): EffectivePolicy | undefined {
      const result = merged.get(cacheKey(workspaceId, normalizeRepository(repository)));
      return result && present(workspaceId, repository, result);
    },

    /** One layer (`repository` null for the workspace layer), or null when it is not set. */
    async getLayer(workspaceId: string, repository: string | null): Promise<PolicyLayer | null> {
      const row = await repo.findLayer(db, workspaceId, repository === null ? '' : normalizeRepository(repository));
      return row ? toLayer(row) : null;
    },

    /** Replaces a layer with `settings` (absent fields inherit). @returns the new layer version. */
    async putLayer(
      workspaceId: string,
      repository: string | null,
      settings: PolicyLayerSettings,
      actor: ActorRef,
    ): Promise<PolicyLayer> {
      const layer = await write(workspaceId, repository === null ? '' : normalizeRepository(repository), settings, actor);
      if (!layer) throw new Error('layer write returned nothing');
      return layer;
    },

    /** Removes a layer. @returns false when it was not set. */
    async deleteLayer(workspaceId: string, repository: string | null, actor: ActorRef): Promise<boolean> {
      const key = repository === null ? '' : normalizeRepository(repository);
      return (await write(workspaceId, key, null, actor)) !== null;
    },
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
