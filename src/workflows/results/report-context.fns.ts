import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { keptForPerson } from './deletion-kept.fns.js';
import { regulationsOf } from '../../modules/subject-data/rights.fns.js';

/**
 * What a deletion did not and cannot touch: copies its subject's data has outside this service.
 * Stated in every deletion report so that it does not read as more than it is (GDPR Art. 17(2)
 * asks a controller to inform others; these hold their own copies as controllers in their own right).
 */
export const DELETION_NOT_TOUCHED: readonly string[] = [
  'Data held by the code hosts themselves (GitHub, GitLab): accounts, pull/merge requests, their titles and history stay there, under their own terms; ask them for erasure.',
  'Data held by the identity provider itself (the user directory the subject came from); ask its operator for erasure.',
  'Copies that operators or other systems made outside this service from its API answers, for instance downloaded packages.',
];

/** One data system's part of a deletion (PRODUCT §2.9): filled in by data tasks, absent until then. */
export interface SystemReportPart {
  key: string;
  name: string;
  outcome: string;
  erased?: Record<string, number>;
  kept?: { category: string; reason: string }[];
  note?: string;
}

/**
 * A stored report (JSON text) as the API serves it, naming what it is proof of (PRODUCT §2.11):
 * the request (`request_id`, `request_type`), its workspace, its subject as the request named it
 * (`subject.provider` and `subject.id` as filed: the identifier the person and the controller
 * both know, kept in the request record anyway; no pseudonym a person could not check), when it
 * was received and completed; for a deletion, what it did not touch (`not_touched`) and, when
 * given, each data system's part (`systems`: the hook data tasks fill in), and what it kept and
 * why in plain words to the person (`kept`: {@link keptForPerson}, PRODUCT §2.17). Fields the stored
 * report already has are kept as stored. Text that is not a JSON object is returned unchanged.
 */
export function reportWithContext(json: string, request: PrivacyRequestRow, systems?: readonly SystemReportPart[]): string {
  let report: unknown;
  try {
    report = JSON.parse(json);
  } catch {
    return json;
  }
  if (typeof report !== 'object' || report === null || Array.isArray(report)) return json;
  const { format, ...rest } = report as Record<string, unknown>;
  const deletion = request.request_type === 'deletion';
  return JSON.stringify({
    format,
    request_id: request.id,
    request_type: request.request_type,
    workspace_id: request.workspace_id,
    subject: { provider: request.subject_provider, id: request.subject_id },
    received_at: request.created_at,
    completed_at: request.completed_at,
    ...rest,
    ...(deletion && !('not_touched' in rest) ? { not_touched: DELETION_NOT_TOUCHED } : {}),
    ...(systems && !('systems' in rest) ? { systems } : {}),
    ...(deletion && !('kept' in rest)
      ? { kept: keptForPerson({ ...(systems ? { systems } : {}), ...rest }, regulationsOf(request.regulation)) }
      : {}),
  });
}
