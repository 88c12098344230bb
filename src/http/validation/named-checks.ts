import { subjectIdProblem } from '../../modules/subject-data/request-identity.fns.js';
import { isCalendarDate } from '../../lib/calendar-day.js';
import { optInSourceProblem } from '../../modules/opt-outs/opt-out.fns.js';
import type { ErrorItem, Loc } from './error-item.js';

const DAY_MS = 86_400_000;

/**
 * Checks that no JSON Schema keyword says, by name (`x-after`), each returning the problem or
 * null. `received-at`: an RFC 3339 time (the pattern has passed) naming a real calendar day,
 * not in the future and at most 365 days ago by the service clock ({@link atTime}; PRODUCT §2.13).
 */
export const AFTER_CHECKS = {
  'received-at': (text: string, now: number): string | null => {
    const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
    if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return 'not a real calendar day';
    const at = Date.parse(text);
    if (at > now) return 'received_at is in the future';
    if (at < now - 365 * DAY_MS) return 'received_at is more than 365 days ago';
    return null;
  },
  /** A `YYYY-MM-DD` text (the pattern has passed) naming a real calendar day (a policy's `holidays`). */
  'calendar-day': (text: string): string | null => (isCalendarDate(text) ? null : 'not a real calendar day'),
} as const;
export type AfterCheck = keyof typeof AFTER_CHECKS;

/** `subject-identity` of {@link MODEL_CHECKS}. */
function subjectIdentity(value: Record<string, unknown>, loc: Loc): ErrorItem[] {
  const { subject_provider: provider, subject_id: id } = value;
  if (typeof provider !== 'string' || typeof id !== 'string') return [];
  const problem = subjectIdProblem(provider, id);
  return problem === null ? [] : [{ type: 'value_error', loc: [...loc, 'subject_id'], msg: problem, input: id }];
}

/**
 * Checks of a whole object that no JSON Schema keyword says, by name (`x-model-after`), run only
 * when every field of the object passed (as Pydantic runs an after model validator), each
 * returning its errors. `subject-identity`: a `subject_provider: "phone"` needs a `subject_id`
 * that is a phone number in E.164 once spaces, dashes, dots and parentheses are removed
 * (PRODUCT §2.17): `value_error` at the object's `subject_id`, worded as pydantic-extra-types'
 * `PhoneNumber` words it, without `ctx`.
 */
export const MODEL_CHECKS = {
  'subject-identity': subjectIdentity,
  /**
   * An opt-out (PRODUCT §2.18): the subject's identity as `subject-identity`, then an `opt_in`
   * only from a source that may give one (`optInSourceProblem`): `value_error` at the object's
   * `source`, without `ctx`.
   */
  'opt-out': (value: Record<string, unknown>, loc: Loc): ErrorItem[] => {
    const identity = subjectIdentity(value, loc);
    if (identity.length > 0) return identity;
    const { choice, source } = value;
    if (typeof choice !== 'string' || typeof source !== 'string') return [];
    const problem = optInSourceProblem(choice, source);
    return problem === null ? [] : [{ type: 'value_error', loc: [...loc, 'source'], msg: problem, input: source }];
  },
} as const;
export type ModelCheck = keyof typeof MODEL_CHECKS;

/** The time {@link AFTER_CHECKS} compare with, ms: the service clock's, set for each validation. */
let checkTime = Date.now();

/**
 * Runs `validate` with `now` (the service clock, ms) as the time of the checks that compare with
 * it. Validation is synchronous, so the value cannot leak into another request's validation.
 */
export function atTime<T>(now: number, validate: () => T): T {
  const before = checkTime;
  checkTime = now;
  try {
    return validate();
  } finally {
    checkTime = before;
  }
}

/**
 * The problem the named check `check` finds in `text` (a string that passed its own constraints),
 * or null; a check that compares with the time uses the one {@link atTime} set.
 */
export function afterCheckProblem(check: AfterCheck, text: string): string | null {
  return AFTER_CHECKS[check](text, checkTime);
}
