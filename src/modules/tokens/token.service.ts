import { runUnitOfWork } from '../../db/unit-of-work.js';
import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { createTtlCache, EXTERNAL_CHECK_MS } from '../../lib/ttl-cache.js';
import { type ActorRef, actorFields, recordAudit } from '../audit/audit.repository.js';
import type { Principal } from '../principals/principal.js';
import { SCOPES } from '../principals/scopes.js';
import { generateToken, hashToken, SYSTEM_KEY, TOKEN_PREFIX } from './token.fns.js';
import { type ApiTokenRow, findActiveTokenByHash, insertToken, listTokens, revokeToken } from './token.repository.js';

/** What `token create` takes. `workspaces` is a list of ids or `['*']`. */
export interface CreateTokenInput {
  name: string;
  scopes: string[];
  workspaces: string[];
  /** Data-system keys whose task results the token may report (PRODUCT §2.9); absent or empty: any. */
  systems?: string[];
  /** Who creates it (audited). */
  actor: ActorRef;
}

/** A token as listed: never the secret or its hash. */
export interface TokenSummary {
  id: string;
  name: string;
  scopes: string[];
  workspaces: string[];
  /** The data systems the token is limited to, or null (any). */
  systems: string[] | null;
  created_at: string;
  revoked_at: string | null;
}

/** On PostgreSQL, how long a cached principal is trusted before the token is looked up again (ms). */
export const PRINCIPAL_TTL_MS = 5_000;

function toPrincipal(row: ApiTokenRow): Principal {
  const workspaces = JSON.parse(row.workspaces) as string[];
  return {
    id: `token:${row.id}`,
    name: row.name,
    scopes: new Set(JSON.parse(row.scopes) as string[]),
    workspaces: workspaces.includes('*') ? '*' : new Set(workspaces),
    // A row read before the column existed (the previous release's schema) has no `systems`.
    ...(row.systems == null ? {} : { systems: new Set(JSON.parse(row.systems) as string[]) }),
  };
}

function summarize(row: ApiTokenRow): TokenSummary {
  const { id, name, created_at, revoked_at } = row;
  const systems = row.systems == null ? null : (JSON.parse(row.systems) as string[]);
  return { id, name, created_at, revoked_at, scopes: JSON.parse(row.scopes), workspaces: JSON.parse(row.workspaces), systems };
}

/**
 * API tokens (PRODUCT.md §2.2): created shown-once, stored as SHA-256, revocable.
 *
 * @param deps.db - the database; @param deps.clock - the time source.
 */
export function createTokenService(deps: { db: Executor; clock: Clock; externalChanges?: (() => number) | undefined }) {
  const { db, clock } = deps;
  // Authentication runs on every request: a valid token's principal is cached. A revocation here
  // drops it at once; one made by another process is seen within EXTERNAL_CHECK_MS on SQLite (data
  // version), within PRINCIPAL_TTL_MS on PostgreSQL.
  const principals = createTtlCache<Principal>({
    ttlMs: deps.externalChanges ? 60_000 : PRINCIPAL_TTL_MS,
    maxEntries: 10_000,
    ...(deps.externalChanges ? { generation: deps.externalChanges, generationCheckMs: EXTERNAL_CHECK_MS } : {}),
  });
  return {
    /**
     * Creates a token. @returns its id and the secret (shown once).
     * @throws RangeError on an unknown scope, an empty list, or a system key that is not one (`^[a-z0-9][a-z0-9-]{0,62}$`).
     */
    async create(input: CreateTokenInput): Promise<{ id: string; token: string }> {
      const unknown = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
      if (unknown.length > 0) throw new RangeError(`unknown scope: ${unknown.join(', ')}`);
      if (input.scopes.length === 0 || input.workspaces.length === 0)
        throw new RangeError('at least one scope and one workspace are required');
      const systems = [...new Set(input.systems ?? [])];
      const badSystem = systems.find((key) => !SYSTEM_KEY.test(key));
      if (badSystem !== undefined) throw new RangeError(`not a data system key: ${badSystem}`);
      const token = generateToken();
      const now = toTimestamp(clock());
      const row = {
        id: newId('tok'),
        name: input.name,
        token_hash: hashToken(token),
        scopes: JSON.stringify(input.scopes),
        workspaces: JSON.stringify(input.workspaces),
        // Named only when limited: a token without systems inserts as the previous release did.
        ...(systems.length > 0 ? { systems: JSON.stringify(systems) } : {}),
        created_at: now,
        revoked_at: null,
      };
      await runUnitOfWork(db, async (unit) => {
        const { tx } = unit;
        await insertToken(tx, row);
        recordAudit(unit, {
          ...actorFields(input.actor),
          action: 'token.created',
          targetType: 'api_token',
          targetId: row.id,
          workspaceId: null,
          details: { scopes: input.scopes, workspaces: input.workspaces, ...(systems.length > 0 ? { systems } : {}) },
          occurredAt: now,
        });
      });
      return { id: row.id, token };
    },

    /**
     * The principal behind a presented token when it is cached, without a database read:
     * undefined when not cached (then {@link authenticate} decides). Lets the per-request
     * authentication answer without a promise in the common case.
     */
    cachedPrincipal(token: string): Principal | undefined {
      return token.startsWith(TOKEN_PREFIX) ? principals.get(hashToken(token)) : undefined;
    },

    /** The principal behind a presented token, or null when it is unknown, revoked or not ours. */
    async authenticate(token: string): Promise<Principal | null> {
      if (!token.startsWith(TOKEN_PREFIX)) return null;
      const hash = hashToken(token);
      const cached = principals.get(hash);
      if (cached) return cached;
      const row = await findActiveTokenByHash(db, hash);
      if (!row) return null;
      const principal = toPrincipal(row);
      principals.set(hash, principal);
      return principal;
    },

    /** Every token, without secrets. */
    async list(): Promise<TokenSummary[]> {
      return (await listTokens(db)).map(summarize);
    },

    /** Revokes a token. @returns false when no active token has this id. */
    async revoke(id: string, actor: ActorRef): Promise<boolean> {
      const now = toTimestamp(clock());
      return runUnitOfWork(db, async (unit) => {
        const { tx } = unit;
        const revoked = await revokeToken(tx, id, now);
        principals.clear();
        if (revoked)
          recordAudit(unit, {
            ...actorFields(actor),
            action: 'token.revoked',
            targetType: 'api_token',
            targetId: id,
            workspaceId: null,
            occurredAt: now,
          });
        return revoked;
      });
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
