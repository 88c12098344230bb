/** A fresh Idempotency-Key (RFC 9562 UUID v4; 36 characters, within the API's 8–200). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
