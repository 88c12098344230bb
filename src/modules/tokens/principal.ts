/**
 * Who is calling: an API token or an OIDC subject. `id` is stable and non-personal for tokens
 * (`token:tok_…`); for OIDC it is `oidc:<sub>`, the issuer's opaque subject.
 */
export interface Principal {
  readonly id: string;
  /**
   * Who it is, for the audit trail (PRODUCT.md §2.7): the API token's name, the OIDC operator's
   * display claim, the integration id for a webhook. An operator's name, never a data subject's.
   */
  readonly name: string;
  readonly scopes: ReadonlySet<string>;
  /** The workspaces this principal may act in, or `'*'` for all. */
  readonly workspaces: ReadonlySet<string> | '*';
}

/** True when the principal may act in `workspaceId`. */
export function coversWorkspace(principal: Principal, workspaceId: string): boolean {
  return principal.workspaces === '*' || principal.workspaces.has(workspaceId);
}
