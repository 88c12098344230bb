import type { Executor } from '../../db/executor.js';
import { runUnitOfWork, type UnitOfWork } from '../../db/unit-of-work.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { type ActorRef, actorFields, recordAudit } from '../audit/audit.repository.js';
import { checkDestination } from './address-guard.js';
import { failPendingMessages } from './endpoint-health.repository.js';
import type { EventType } from './event-types.js';
import { newEndpointSecret, PREVIOUS_SECRET_TTL_MS } from './signing.js';
import * as repo from './webhook-endpoint.repository.js';
import type {
  CreateEndpointInput,
  EndpointWithSecret,
  UpdateEndpointInput,
  WebhookEndpointResource,
} from './webhook-endpoint.types.js';

/** The endpoint does not exist, or not in the caller's workspaces (404). */
export class EndpointNotFoundError extends Error {}

/** The workspace has `MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE` endpoints already (409). */
export class EndpointLimitError extends Error {
  constructor(readonly limit: number) {
    super(`webhook endpoint limit reached: ${limit}`);
  }
}

/** Maps a stored endpoint to the API resource (never a secret). */
export function toEndpointResource(row: repo.WebhookEndpointRow): WebhookEndpointResource {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    url: row.url,
    description: row.description,
    event_types: row.event_types === null ? null : (JSON.parse(row.event_types) as EventType[]),
    disabled: row.disabled_at !== null,
    disabled_at: row.disabled_at,
    failing_since: row.failing_since,
    created_at: row.created_at,
    updated_at: row.updated_at ?? row.created_at,
  };
}

/** Event types as stored: a JSON array without duplicates, or NULL for every type. */
function storedTypes(types: readonly EventType[] | null | undefined): string | null {
  return types === undefined || types === null ? null : JSON.stringify([...new Set(types)]);
}

/**
 * Webhook endpoints (PRODUCT §2.8): a workspace's receivers of signed outbound events. The
 * signing secret (`whsec_…`) is returned once, at creation or rotation, and kept encrypted
 * (lib/secret-box.ts) since it must sign every delivery. Every change is audited (actor, event
 * types; never the URL or a secret).
 *
 * @param deps.allowPrivate - `OUTBOUND_ALLOW_PRIVATE_NETWORKS`: `http://` and private addresses accepted.
 * @param deps.maxPerWorkspace - `MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE` (default 100): endpoints, enabled or not, per workspace.
 */
export function createWebhookEndpointService(deps: {
  db: Executor;
  clock: Clock;
  secretBox: SecretBox;
  allowPrivate: boolean;
  maxPerWorkspace?: number;
}) {
  const maxPerWorkspace = deps.maxPerWorkspace ?? 100;
  const { db, clock, secretBox } = deps;

  function audit(unit: UnitOfWork, actor: ActorRef, action: string, row: repo.WebhookEndpointRow, at: string, details = {}) {
    recordAudit(unit, {
      ...actorFields(actor),
      action: `webhook_endpoint.${action}`,
      targetType: 'webhook_endpoint',
      targetId: row.id,
      workspaceId: row.workspace_id,
      details,
      occurredAt: at,
    });
  }

  /** The endpoint `id` locked in `unit`, when `covers` its workspace. @throws EndpointNotFoundError */
  async function locked(unit: UnitOfWork, id: string, covers: (workspaceId: string) => boolean) {
    const row = await repo.lockEndpoint(unit.tx, id);
    if (!row || !covers(row.workspace_id)) throw new EndpointNotFoundError(id);
    return row;
  }

  return {
    /**
     * Registers an endpoint and returns it with its new secret.
     * @throws ForbiddenDestinationError when the URL is not `https://` or names a forbidden address;
     *   EndpointLimitError when the workspace has `MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE` already.
     */
    async create(input: CreateEndpointInput, actor: ActorRef): Promise<EndpointWithSecret> {
      checkDestination(input.url, deps.allowPrivate);
      const secret = newEndpointSecret();
      const at = toTimestamp(clock());
      const row = {
        id: newId('ep'),
        workspace_id: input.workspace_id,
        url: input.url,
        description: input.description ?? null,
        event_types: storedTypes(input.event_types),
        secret_ciphertext: secretBox.seal(secret),
        previous_secret_ciphertext: null,
        previous_secret_expires_at: null,
        failing_since: null,
        disabled_at: null,
        created_at: at,
        updated_at: at,
      };
      await runUnitOfWork(db, async (unit) => {
        if ((await repo.countEndpoints(unit.tx, row.workspace_id)) >= maxPerWorkspace)
          throw new EndpointLimitError(maxPerWorkspace);
        await repo.insertEndpoint(unit.tx, row);
        audit(unit, actor, 'created', row, at, { event_types: input.event_types ?? null });
      });
      return { ...toEndpointResource(row), secret };
    },

    /** Endpoints of the given workspaces (or all), oldest first. */
    async list(workspaces: readonly string[] | '*'): Promise<WebhookEndpointResource[]> {
      return (await repo.listEndpoints(db, workspaces)).map(toEndpointResource);
    },

    /** One endpoint, or null. */
    async get(id: string): Promise<WebhookEndpointResource | null> {
      const row = await repo.findEndpoint(db, id);
      return row ? toEndpointResource(row) : null;
    },

    /**
     * Changes an endpoint. `disabled: true` disables it (its pending messages fail: nothing more
     * is sent to it); `disabled: false` enables it again and forgets its run of failures
     * (messages failed meanwhile are sent again with `recover`).
     * @throws EndpointNotFoundError; ForbiddenDestinationError for a new URL that is not allowed.
     */
    async update(
      id: string,
      input: UpdateEndpointInput,
      actor: ActorRef,
      covers: (workspaceId: string) => boolean,
    ): Promise<WebhookEndpointResource> {
      if (input.url !== undefined) checkDestination(input.url, deps.allowPrivate);
      return runUnitOfWork(db, async (unit) => {
        const row = await locked(unit, id, covers);
        const at = toTimestamp(clock());
        const disabled =
          input.disabled === undefined
            ? {}
            : input.disabled
              ? { disabled_at: row.disabled_at ?? at }
              : { disabled_at: null, failing_since: null };
        const updated = await repo.updateEndpoint(unit.tx, id, {
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.event_types !== undefined ? { event_types: storedTypes(input.event_types) } : {}),
          ...disabled,
          updated_at: at,
        });
        if (!updated) throw new EndpointNotFoundError(id);
        if (input.disabled === true && row.disabled_at === null) await failPendingMessages(unit.tx, id);
        audit(unit, actor, 'updated', updated, at, { fields: Object.keys(input).sort() });
        return toEndpointResource(updated);
      });
    },

    /**
     * Replaces the signing secret; the previous one keeps signing next to it for 24 h
     * ({@link PREVIOUS_SECRET_TTL_MS}), so receivers can switch without losing a delivery.
     * @throws EndpointNotFoundError
     */
    async rotateSecret(id: string, actor: ActorRef, covers: (workspaceId: string) => boolean): Promise<EndpointWithSecret> {
      const secret = newEndpointSecret();
      return runUnitOfWork(db, async (unit) => {
        const row = await locked(unit, id, covers);
        const now = clock();
        const at = toTimestamp(now);
        const updated = await repo.updateEndpoint(unit.tx, id, {
          secret_ciphertext: secretBox.seal(secret),
          previous_secret_ciphertext: row.secret_ciphertext,
          previous_secret_expires_at: toTimestamp(new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS)),
          updated_at: at,
        });
        if (!updated) throw new EndpointNotFoundError(id);
        audit(unit, actor, 'secret_rotated', updated, at);
        return { ...toEndpointResource(updated), secret };
      });
    },

    /** Deletes an endpoint and its messages. @throws EndpointNotFoundError */
    async remove(id: string, actor: ActorRef, covers: (workspaceId: string) => boolean): Promise<void> {
      await runUnitOfWork(db, async (unit) => {
        const row = await locked(unit, id, covers);
        await repo.deleteEndpoint(unit.tx, id);
        audit(unit, actor, 'deleted', row, toTimestamp(clock()));
      });
    },
  };
}

export type WebhookEndpointService = ReturnType<typeof createWebhookEndpointService>;
