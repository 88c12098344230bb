import type { RecordCodec, StoredResponse } from '../../modules/idempotency/idempotency.service.js';
import { requestLocation } from '../../modules/request-model/request-model.js';
import { resourceJson } from '../../modules/privacy-requests/privacy-request.fns.js';
import type { Filing, PrivacyRequestResource } from '../../modules/privacy-requests/privacy-request.types.js';

const LOCATION_PREFIX = requestLocation('');

/**
 * How a filing's outcome is kept in its Idempotency-Key record: as the bytes of the HTTP answer
 * it got (status 202 with `Location` and the resource as JSON text, or 409 with the `Location`
 * of the request holding the `client_request_id`), the format every release has stored, so a
 * replay across an upgrade answers the same. The one place that knows that format.
 */
export const filingRecordCodec: RecordCodec<Filing> = {
  encode(outcome: Filing): StoredResponse {
    if (outcome.kind === 'client_request_id_taken') {
      return { status: 409, location: outcome.existingId === null ? null : requestLocation(outcome.existingId), body: '' };
    }
    return { status: 202, location: requestLocation(outcome.request.id), body: resourceJson(outcome.request) };
  },
  decode(record: StoredResponse): Filing {
    if (record.status === 202) {
      const request = JSON.parse(record.body) as PrivacyRequestResource;
      // Answers stored before `received_at` existed (2026-11-25) were received when filed.
      // Answers stored before `assignee` existed (2026-11-28) were unassigned; before
      // `related_request_id` (2026-12-08) no request was filed as a repeat; before `agent`
      // (2026-12-08) none by an authorized agent.
      return {
        kind: 'filed',
        request: {
          ...request,
          received_at: request.received_at ?? request.created_at,
          related_request_id: request.related_request_id ?? null,
          assignee: request.assignee ?? null,
          agent: request.agent ?? null,
        },
      };
    }
    const location = record.location ?? '';
    return {
      kind: 'client_request_id_taken',
      existingId: location.startsWith(LOCATION_PREFIX) ? location.slice(LOCATION_PREFIX.length) : null,
    };
  },
};
