import type { Regulation } from './policy.types.js';
import type { AuthorIdentity, PolicyLayerSettings } from './policy.types.js';
import { isCalendarDate } from '../../lib/calendar-day.js';

const AUTHOR_IDENTITIES: readonly AuthorIdentity[] = ['full', 'pseudonymous', 'none'];
const REGULATIONS: readonly Regulation[] = ['gdpr', 'ccpa'];

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/** True for an array whose every item passes `item`. */
const arrayOf =
  <T>(item: (value: unknown) => value is T) =>
  (value: unknown): value is T[] =>
    Array.isArray(value) && value.every(item);

const isPath = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isRegulation = (value: unknown): value is Regulation => REGULATIONS.includes(value as Regulation);
const isPaths = arrayOf(isPath);
const isDay = (value: unknown): value is string => typeof value === 'string' && isCalendarDate(value);
const isDays = arrayOf(isDay);
const isRegulations = arrayOf(isRegulation);

/**
 * What a stored field must be for the merge to use it: the API's rules (policy.schemas.ts), less
 * the ones a merge does not need (duplicates are merged away; lengths only bound input).
 */
const STORED_FIELD: { [K in keyof Required<PolicyLayerSettings>]: (value: unknown) => boolean } = {
  processing_allowed: isBoolean,
  retention_days: (value) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 3650,
  author_identity: (value) => AUTHOR_IDENTITIES.includes(value as AuthorIdentity),
  excluded_paths: isPaths,
  // Never empty: a request's deadline needs at least one regulation.
  regulations: (value) => isRegulations(value) && value.length > 0,
  require_approval: isBoolean,
  auto_erase_on_deprovision: isBoolean,
  confirm_no_data: isBoolean,
  holidays: isDays,
  repeat_window_days: (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 365,
  review_packages: isBoolean,
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A stored layer's settings (the `settings` JSON of `policy_layers`) as the merge may use them:
 * each field the API would refuse today (`regulations: []` written before it was refused, a
 * wrong type, an unknown value) is left out, so it is treated as absent and the field inherits
 * (docs/decisions.md). Unknown fields are left out too; text that is not a JSON object reads as
 * an empty layer. Never throws.
 *
 * @param text - the stored JSON text.
 * @returns the usable fields, in the stored order.
 */
export function readStoredSettings(text: string): PolicyLayerSettings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isObject(parsed)) return {};
  const settings: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(parsed)) {
    const usable = Object.hasOwn(STORED_FIELD, field) && STORED_FIELD[field as keyof PolicyLayerSettings](value);
    if (usable) settings[field] = value;
  }
  return settings as PolicyLayerSettings;
}
