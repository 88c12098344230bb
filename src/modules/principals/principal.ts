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
  /**
   * The data systems (keys) whose task results this principal may report (`privacyctl token
   * create --system KEY`, PRODUCT §2.9); absent: any system of its workspaces.
   */
  readonly systems?: ReadonlySet<string>;
}

/** True when the principal may act in `workspaceId`. */
export function coversWorkspace(principal: Principal, workspaceId: string): boolean {
  return principal.workspaces === '*' || principal.workspaces.has(workspaceId);
}

/** True when the principal may report results for tasks of data system `systemKey`. */
export function coversSystem(principal: Principal, systemKey: string): boolean {
  return principal.systems === undefined || principal.systems.has(systemKey);
}
