/**
 * Row shape of `package_redactions`: a value an operator withholds from an access or export
 * package before release (PRODUCT §2.20, GDPR Art. 15(4)). Never the value itself.
 */
export interface PackageRedactionTable {
  /** `red_<ULID>`: time-sortable, so `ORDER BY id` is oldest first. */
  id: string;
  request_id: string;
  workspace_id: string;
  /** JSON Pointer (RFC 6901) into the package as stored, e.g. `/systems/shop/orders/0/notes`. */
  path: string;
  /** Why it is withheld: what the person reads in its place (`[withheld: <reason>]`). */
  reason: string;
  /** The principal that withheld it (`token:tok_…`, `oidc:<sub>`) and its name as the audit trail shows it. */
  created_by: string;
  created_by_name: string;
  /** RFC 3339 UTC. */
  created_at: string;
}
