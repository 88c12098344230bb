/**
 * Row shape of `audit_events`: who did what to which record. Carries no personal data:
 * `details` is a JSON object of non-personal facts (status changes, versions, reasons).
 */
export interface AuditEventTable {
  id: string;
  occurred_at: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  workspace_id: string | null;
  details: string;
}
