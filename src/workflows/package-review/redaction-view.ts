import type { PackageRedactionRow } from '../../modules/package-review/package-redaction.repository.js';

/** A redaction as the API shows it (PRODUCT §2.20): never the withheld value. */
export interface RedactionView {
  id: string;
  request_id: string;
  path: string;
  reason: string;
  /** Who withheld it, as the audit trail names them. */
  created_by: string;
  created_at: string;
}

/** The API's view of a stored redaction. */
export function redactionView(row: PackageRedactionRow): RedactionView {
  return {
    id: row.id,
    request_id: row.request_id,
    path: row.path,
    reason: row.reason,
    created_by: row.created_by_name,
    created_at: row.created_at,
  };
}
