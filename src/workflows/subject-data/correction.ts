import type { Executor } from '../../db/executor.js';
import { toTimestamp } from '../../lib/clock.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import { covers, parseScope } from '../../modules/subject-data/scope.fns.js';
import { recordCorrection, resolveSubject } from '../../modules/subject-data/subject-data.repository.js';

/**
 * Fields a correction (rectification, GDPR Art. 16) can change, with the category each belongs
 * to (a request can only correct fields its scope covers) and its longest value in code points
 * (the profile column's size).
 */
export const CORRECTABLE_FIELDS = {
  email: { category: 'user.contact.email', maxLength: 500 },
  name: { category: 'user.name', maxLength: 500 },
  username: { category: 'user.account', maxLength: 300 },
} as const;
export type CorrectableField = keyof typeof CORRECTABLE_FIELDS;

/** Why a field of `changes` was refused. */
export type CorrectionProblem = 'not_correctable' | 'not_in_scope' | 'invalid_value';

/**
 * The corrections cannot be applied (the route answers 422). `reason` is `invalid fields`
 * (see `problems`), `no changes` (an empty object), or `unknown subject` (the service holds no
 * profile of the subject, so there is nothing to correct). The message names fields, never values.
 */
export class NotCorrectableError extends Error {
  constructor(
    readonly reason: 'invalid fields' | 'no changes' | 'unknown subject',
    readonly problems: { field: string; problem: CorrectionProblem }[] = [],
  ) {
    super(
      problems.length > 0
        ? `${reason}: ${problems.map((p) => `${p.field} (${p.problem.replaceAll('_', ' ')})`).join(', ')}`
        : reason,
    );
    this.name = 'NotCorrectableError';
  }

  /** The refused field names. */
  get fields(): string[] {
    return this.problems.map((p) => p.field);
  }
}

/** The report of an applied correction: the names of the corrected fields, never their values. */
export interface CorrectionReport {
  format: 'correction-report/1';
  corrected: CorrectableField[];
  /** Set when nothing could be corrected (e.g. the service holds no profile of the subject). */
  note?: string;
}

function isCorrectable(field: string): field is CorrectableField {
  return Object.hasOwn(CORRECTABLE_FIELDS, field);
}

/**
 * A string of 1 to `maxLength` code points without a NUL character (PostgreSQL text cannot hold
 * one; refused on both databases alike).
 */
function isStorableText(value: unknown, maxLength: number): value is string {
  if (typeof value !== 'string' || value.includes('\u0000')) return false;
  const length = [...value].length;
  return length >= 1 && length <= maxLength;
}

/**
 * Checks `changes` against the request's scope: every key a correctable field its scope covers,
 * every value a string of 1 to the field's maximum code points, without a NUL character.
 * @returns the refused fields (empty when all are fine).
 */
export function correctionProblems(
  scope: readonly string[],
  changes: Record<string, unknown>,
): { field: string; problem: CorrectionProblem }[] {
  const problems: { field: string; problem: CorrectionProblem }[] = [];
  for (const [field, value] of Object.entries(changes)) {
    if (!isCorrectable(field)) problems.push({ field, problem: 'not_correctable' });
    else if (!covers(scope, CORRECTABLE_FIELDS[field].category)) problems.push({ field, problem: 'not_in_scope' });
    else if (!isStorableText(value, CORRECTABLE_FIELDS[field].maxLength)) problems.push({ field, problem: 'invalid_value' });
  }
  return problems;
}

/**
 * Applies the corrected values of a correction request (GDPR Art. 16) to the subject's profile,
 * through `tx`. The correction is also stored as an identity event (`user.updated`, id
 * `correction:<request id>`, at `now`), so re-folding the profile from its events (PRODUCT.md
 * §2.6) keeps it until the identity provider reports a newer value. The caller audits the
 * action (field names only).
 *
 * @param changes - `{field: corrected value}`; see {@link CORRECTABLE_FIELDS}.
 * @returns the report (field names, in {@link CORRECTABLE_FIELDS} order).
 * @throws NotCorrectableError for an empty `changes`, a field not correctable or not in scope,
 *   a value that is not a string of the allowed length, or a subject the service holds no profile of.
 */
export async function applyCorrections(
  tx: Executor,
  request: PrivacyRequestRow,
  changes: Record<string, unknown>,
  now: Date = new Date(),
): Promise<CorrectionReport> {
  if (Object.keys(changes).length === 0) throw new NotCorrectableError('no changes');
  const problems = correctionProblems(parseScope(request.scope), changes);
  if (problems.length > 0) throw new NotCorrectableError('invalid fields', problems);
  const subject = await resolveSubject(tx, request, true);
  if (!subject) throw new NotCorrectableError('unknown subject');
  const corrected = (Object.keys(CORRECTABLE_FIELDS) as CorrectableField[]).filter((f) => Object.hasOwn(changes, f));
  const values = Object.fromEntries(corrected.map((f) => [f, changes[f] as string])) as Partial<Record<CorrectableField, string>>;
  await recordCorrection(tx, subject, `correction:${request.id}`, values, toTimestamp(now));
  return { format: 'correction-report/1', corrected };
}

/** Why a correction has nothing to correct when the service holds no profile of its subject. */
export const UNKNOWN_SUBJECT = 'the service holds no profile of this subject';

/**
 * Whether a correction request can wait for values: null when it can, else why there is nothing
 * to correct (`no correctable field in scope`, or `the service holds no profile of this subject`),
 * which the request's report states.
 */
export async function correctionReadiness(db: Executor, request: PrivacyRequestRow): Promise<string | null> {
  const scope = parseScope(request.scope);
  if (!Object.values(CORRECTABLE_FIELDS).some((f) => covers(scope, f.category))) return 'no correctable field in scope';
  if (!(await resolveSubject(db, request))) return UNKNOWN_SUBJECT;
  return null;
}
