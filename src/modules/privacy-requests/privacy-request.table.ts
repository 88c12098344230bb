/** Row shape of `privacy_requests`. Times are RFC 3339 UTC strings; `scope` is a JSON array. */
export interface PrivacyRequestTable {
  id: string;
  workspace_id: string;
  request_type: string;
  scope: string;
  subject_provider: string;
  subject_id: string;
  client_request_id: string;
  intake_ref: string;
  regulation: string;
  status: string;
  status_reason: string | null;
  created_at: string;
  due_at: string;
  extended_due_at: string | null;
  completed_at: string | null;
  updated_at: string;
}
