import type { RecordCodec, StoredResponse } from '../../modules/idempotency/idempotency.service.js';
import { optOutLocation } from '../../modules/opt-outs/opt-out.fns.js';
import type { OptOutAccepted, OptOutFiling } from '../../modules/opt-outs/opt-out.types.js';

const LOCATION_PREFIX = optOutLocation('');

/**
 * How an opt-out filing's outcome is kept in its Idempotency-Key record: as the bytes of its HTTP
 * answer (202 with `Location` and `{id, status, due_at}`, or 409 with the `Location` of the
 * opt-out holding the `client_request_id`), as filing-record.ts keeps a privacy request's.
 */
export const optOutRecordCodec: RecordCodec<OptOutFiling> = {
  encode(outcome: OptOutFiling): StoredResponse {
    if (outcome.kind === 'client_request_id_taken') {
      return { status: 409, location: outcome.existingId === null ? null : optOutLocation(outcome.existingId), body: '' };
    }
    return { status: 202, location: optOutLocation(outcome.accepted.id), body: JSON.stringify(outcome.accepted) };
  },
  decode(record: StoredResponse): OptOutFiling {
    if (record.status === 202) return { kind: 'filed', accepted: JSON.parse(record.body) as OptOutAccepted };
    const location = record.location ?? '';
    return {
      kind: 'client_request_id_taken',
      existingId: location.startsWith(LOCATION_PREFIX) ? location.slice(LOCATION_PREFIX.length) : null,
    };
  },
};
