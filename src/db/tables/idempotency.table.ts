/**
 * Row shape of `idempotency_records`: one per (principal, Idempotency-Key).
 * `state` is `in_flight` until the response is stored, then `completed`.
 */
export interface IdempotencyTable {
  principal_id: string;
  idempotency_key: string;
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_location: string | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}
