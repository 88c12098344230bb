// Who the signed-in token is (GET /api/v1/whoami), asked once per sign-in: the views show only
// the actions it may take (a privacy:read token none, the filer of a request no Approve).
import { useEffect, useState } from 'preact/hooks';
import { api } from './client';
import type { AuditEvent, WhoAmI } from './types';

let pending: Promise<WhoAmI> | null = null;

/** Forgets the cached answer (sign-out, another token). */
export function forgetWhoAmI(): void {
  pending = null;
}

/** The principal, or null while it loads (or when the call failed). */
export function useWhoAmI(): WhoAmI | null {
  const [me, setMe] = useState<WhoAmI | null>(null);
  useEffect(() => {
    pending ??= api<WhoAmI>('GET', '/api/v1/whoami');
    pending.then(setMe, () => {
      pending = null;
    });
  }, []);
  return me;
}

/** True when the principal has `scope` (or `admin`). */
export function hasScope(me: WhoAmI | null, scope: string): boolean {
  return me !== null && (me.scopes.includes('admin') || me.scopes.includes(scope));
}

/**
 * True for an admin of every workspace (`*`): only such a principal may verify the audit chain,
 * which is one chain over the whole service (GET /api/v1/audit-events/verify answers 403 to others).
 */
export function isServiceAdmin(me: WhoAmI | null): boolean {
  return me !== null && me.scopes.includes('admin') && me.workspaces === '*';
}

/** The principal id of an audit entry's actor (`token:tok_…`, `oidc:<sub>`, `integration:int_…`). */
export function actorPrincipal(actor: AuditEvent['actor']): string {
  const prefix =
    actor.type === 'token'
      ? 'token:'
      : actor.type === 'oidc'
        ? 'oidc:'
        : actor.type === 'webhook'
          ? 'integration:'
          : actor.type === 'agent'
            ? 'agent:'
            : '';
  return `${prefix}${actor.id}`;
}
