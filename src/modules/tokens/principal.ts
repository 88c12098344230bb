/**
 * Who is calling: an API token or an OIDC subject. `id` is stable and non-personal for tokens
 * (`token:tok_…`); for OIDC it is `oidc:<sub>`, the issuer's opaque subject.
 */
export interface Principal {
  readonly id: string;
  readonly scopes: ReadonlySet<string>;
  /** The workspaces this principal may act in, or `'*'` for all. */
  readonly workspaces: ReadonlySet<string> | '*';
}

/** True when the principal may act in `workspaceId`. */
export function coversWorkspace(principal: Principal, workspaceId: string): boolean {
  return principal.workspaces === '*' || principal.workspaces.has(workspaceId);
}
