import { runUnitOfWork } from '../../db/unit-of-work.js';
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { createTtlCache, EXTERNAL_CHECK_MS } from '../../lib/ttl-cache.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { type ActorRef, actorFields, recordAudit } from '../audit/audit.repository.js';
import * as repo from './integration.repository.js';
import {
  type CreateIntegrationInput,
  type IntegrationKind,
  type IntegrationResource,
  WEBHOOK_PATHS,
} from './integration.types.js';

/** An integration resolved for a delivery, with what it takes to verify it. */
export interface DeliveryTarget {
  id: string;
  workspace_id: string;
  format: string | null;
  subject_provider: string | null;
  /** The HMAC secret (GitHub, identity) or the SHA-256 hex of the token (GitLab). */
  secret: string;
}

/** A create body that is well-formed but incomplete for its kind: rendered as a 422 `missing`/`value_error`. */
export class IntegrationInputError extends Error {
  constructor(
    readonly field: string,
    readonly kind: 'missing' | 'value_error',
    message: string,
  ) {
    super(message);
  }
}

/** The workspace already has an integration of the same kind for the namespace (409; other workspaces never cause it). */
export class NamespaceTakenError extends Error {}

/**
 * At most this many integrations are tried for one delivery routed by namespace. Each candidate
 * costs one constant-time verification (for GitHub an HMAC over the whole body, up to
 * `BODY_LIMIT_BYTES`), and every candidate is tried (no early exit, so the answer's timing does
 * not tell where a match was); the cap bounds that work per unauthenticated delivery. The oldest
 * integrations are the ones tried, so later registrations cannot push an established one out.
 */
export const MAX_ROUTING_CANDIDATES = 8;

/** True when `value` could be a stored id or namespace (at most 500 characters, no NUL). */
function storableKey(value: string): boolean {
  return value.length <= 500 && !value.includes('\u0000');
}

/** Compares a presented GitLab token with the stored hash: SHA-256 both sides, so equal lengths for timingSafeEqual. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * The path to give the sender. Identity deliveries carry no namespace, so their path names the
 * integration (`/webhook/identity?integration=int_…`, as docs/integrations.md tells users to
 * configure it); code hosts are routed by namespace and secret, and may add it.
 */
function webhookPath(kind: IntegrationKind, id: string): string {
  return kind === 'identity' ? `${WEBHOOK_PATHS.identity}?integration=${id}` : WEBHOOK_PATHS[kind];
}

function toResource(row: repo.IntegrationRow): IntegrationResource {
  const { id, kind, workspace_id, namespace, format, subject_provider, created_at } = row;
  return {
    id,
    kind,
    workspace_id,
    namespace,
    format,
    subject_provider,
    created_at,
    webhook_path: webhookPath(kind as IntegrationKind, id),
  };
}

function checkShape(input: CreateIntegrationInput): void {
  if (input.kind !== 'identity' && !input.namespace) throw new IntegrationInputError('namespace', 'missing', 'Field required');
  if (input.kind !== 'identity') return;
  if (!input.format) throw new IntegrationInputError('format', 'missing', 'Field required');
  if (!input.subject_provider) throw new IntegrationInputError('subject_provider', 'missing', 'Field required');
  if (input.format === 'workos') return;
  try {
    new Webhook(input.secret);
  } catch {
    throw new IntegrationInputError(
      'secret',
      'value_error',
      'Value error, a Standard Webhooks secret is base64, optionally prefixed whsec_',
    );
  }
}

/**
 * Integrations (PRODUCT.md §2.5): webhook sources bound to a workspace. Secrets are never
 * returned: GitLab tokens are stored hashed, HMAC secrets encrypted (they must be recovered to
 * verify signatures). Creation and removal are audited.
 */
/** On PostgreSQL, how long a resolved delivery target is served before it is read again (ms). */
export const TARGET_TTL_MS = 1_000;

export function createIntegrationService(deps: {
  db: Executor;
  clock: Clock;
  secretBox: SecretBox;
  externalChanges?: (() => number) | undefined;
}) {
  const { db, clock, secretBox } = deps;
  // Every delivery resolves its integration and decrypts its secret; both are cached (found ones
  // only, so unknown namespaces cannot crowd it). This process's writes clear it; another's are
  // seen within EXTERNAL_CHECK_MS on SQLite, TARGET_TTL_MS on PostgreSQL.
  const targets = createTtlCache<readonly DeliveryTarget[]>({
    ttlMs: deps.externalChanges ? 60_000 : TARGET_TTL_MS,
    maxEntries: 1_000,
    ...(deps.externalChanges ? { generation: deps.externalChanges, generationCheckMs: EXTERNAL_CHECK_MS } : {}),
  });

  function toTarget(row: repo.IntegrationRow): DeliveryTarget {
    const secret = row.secret_hash ?? (row.secret_ciphertext ? secretBox.open(row.secret_ciphertext) : '');
    return Object.freeze({
      id: row.id,
      workspace_id: row.workspace_id,
      format: row.format,
      subject_provider: row.subject_provider,
      secret,
    });
  }

  async function resolveTarget(kind: IntegrationKind, integrationId: string | undefined): Promise<DeliveryTarget | null> {
    let row: repo.IntegrationRow | undefined;
    if (integrationId) row = await repo.findIntegration(db, integrationId);
    return row && row.kind === kind ? toTarget(row) : null;
  }

  return {
    /**
     * @throws IntegrationInputError when a field the kind needs is missing or the secret is unusable.
     * @throws NamespaceTakenError when the workspace already has an integration of this kind for the namespace.
     */
    async create(input: CreateIntegrationInput, actor: ActorRef): Promise<IntegrationResource> {
      checkShape(input);
      const identity = input.kind === 'identity';
      const row: repo.IntegrationRow = {
        id: newId('int'),
        kind: input.kind,
        workspace_id: input.workspace_id,
        namespace: identity ? null : (input.namespace ?? '').toLowerCase(),
        format: identity ? (input.format ?? null) : null,
        subject_provider: identity ? (input.subject_provider ?? null) : null,
        secret_hash: input.kind === 'gitlab' ? hashSecret(input.secret) : null,
        secret_ciphertext: input.kind === 'gitlab' ? null : secretBox.seal(input.secret),
        created_at: toTimestamp(clock()),
      };
      try {
        await runUnitOfWork(db, async (unit) => {
          const { tx } = unit;
          await repo.insertIntegration(tx, row);
          recordAudit(unit, {
            ...actorFields(actor),
            action: 'integration.created',
            targetType: 'integration',
            targetId: row.id,
            workspaceId: row.workspace_id,
            details: { kind: row.kind },
            occurredAt: row.created_at,
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new NamespaceTakenError('namespace taken');
        throw error;
      } finally {
        targets.clear();
      }
      return toResource(row);
    },

    async get(id: string): Promise<IntegrationResource | null> {
      const row = await repo.findIntegration(db, id);
      return row ? toResource(row) : null;
    },

    async list(workspaces: readonly string[] | '*'): Promise<IntegrationResource[]> {
      return (await repo.listIntegrations(db, workspaces)).map(toResource);
    },

    /**
     * The integration a delivery names with `integrationId` (`?integration=`), with its secret
     * (plaintext HMAC secret, or the SHA-256 of a GitLab token). A delivery without one is routed
     * by {@link identityCandidates} or its payload's namespaces instead.
     * @returns null without an id, when none matches, or when the id is of another kind.
     */
    async forDelivery(kind: IntegrationKind, target: { integrationId?: string }): Promise<DeliveryTarget | null> {
      if (target.integrationId !== undefined && !storableKey(target.integrationId)) return null;
      const key = ['id', kind, target.integrationId ?? ''].join('\u0000');
      const cached = targets.get(key);
      if (cached) return cached[0] ?? null;
      const found = await resolveTarget(kind, target.integrationId);
      if (found) targets.set(key, [found]);
      return found;
    },

    /**
     * The identity integrations a delivery without `?integration=` may belong to, in any
     * workspace: the oldest {@link MAX_ROUTING_CANDIDATES}. The caller verifies the delivery
     * against every one and takes the first that verifies, so no answer tells whether other
     * workspaces have one; later ones are reached through `?integration=` only.
     */
    async identityCandidates(): Promise<readonly DeliveryTarget[]> {
      const cached = targets.get('identity');
      if (cached) return cached;
      const found = (await repo.listIdentityIntegrations(db, MAX_ROUTING_CANDIDATES)).map(toTarget);
      if (found.length > 0) targets.set('identity', Object.freeze(found));
      return found;
    },

    /**
     * The integrations that may own a delivery of `kind` routed by its payload's namespaces (the
     * GitHub owner, or a GitLab project's group paths), in any workspace: at most
     * {@link MAX_ROUTING_CANDIDATES}, most specific first, oldest first among equals. The caller
     * verifies the delivery against every one and takes the first that verifies.
     */
    async candidatesFor(kind: 'github' | 'gitlab', namespaces: readonly string[]): Promise<readonly DeliveryTarget[]> {
      // Read before the delivery is verified: a namespace no integration can have (over the
      // column's 500 characters, or with a NUL, which PostgreSQL refuses) matches nothing.
      const lower = namespaces.filter(storableKey).map((n) => n.toLowerCase());
      const key = ['ns', kind, ...lower].join('\u0000');
      const cached = targets.get(key);
      if (cached) return cached;
      const found = (await repo.listByNamespace(db, kind, lower, MAX_ROUTING_CANDIDATES)).map(toTarget);
      if (found.length > 0) targets.set(key, Object.freeze(found));
      return found;
    },

    /** @returns false when no integration has this id. */
    async remove(id: string, actor: ActorRef): Promise<boolean> {
      try {
        return await removeAudited(id, actor);
      } finally {
        // After the commit, so no delivery re-caches the removed integration meanwhile.
        targets.clear();
      }
    },
  };

  function removeAudited(id: string, actor: ActorRef): Promise<boolean> {
    return runUnitOfWork(db, async (unit) => {
      const { tx } = unit;
      const row = await repo.findIntegration(tx, id);
      if (!row || !(await repo.deleteIntegration(tx, id))) return false;
      recordAudit(unit, {
        ...actorFields(actor),
        action: 'integration.removed',
        targetType: 'integration',
        targetId: id,
        workspaceId: row.workspace_id,
        occurredAt: toTimestamp(clock()),
      });
      return true;
    });
  }
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
