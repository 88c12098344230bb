// A policy layer as the console's form holds it (strings and tri-states), and back to the PUT body
// with the problems the API would report, field by field (PRODUCT.md §2.4, §2.18, §2.20).
import type { PolicySettings } from '../api/types.js';

export type Tri = '' | 'true' | 'false';

/** The tri-state fields: empty inherits. */
export const TRI_KEYS = [
  'processing_allowed',
  'require_approval',
  'auto_erase_on_deprovision',
  'confirm_no_data',
  'review_packages',
] as const;

export interface Draft {
  processing_allowed: Tri;
  require_approval: Tri;
  auto_erase_on_deprovision: Tri;
  confirm_no_data: Tri;
  review_packages: Tri;
  retention_days: string;
  repeat_window_days: string;
  author_identity: '' | 'full' | 'pseudonymous' | 'none';
  excluded_paths: string;
  holidays: string;
  regulations: ('gdpr' | 'ccpa')[];
  /**
   * The layer's fields this form does not show, kept as they were: a PUT replaces the whole layer,
   * so a field the form left out would otherwise be dropped by every save.
   */
  kept: Record<string, unknown>;
}

const tri = (value: boolean | undefined): Tri => (value === undefined ? '' : value ? 'true' : 'false');

/** Every field the form shows (the rest is {@link Draft.kept}). */
const SHOWN = new Set<string>([
  ...TRI_KEYS,
  'retention_days',
  'repeat_window_days',
  'author_identity',
  'excluded_paths',
  'holidays',
  'regulations',
]);

export function toDraft(settings: PolicySettings | undefined): Draft {
  const kept = Object.fromEntries(Object.entries(settings ?? {}).filter(([key]) => !SHOWN.has(key)));
  return {
    processing_allowed: tri(settings?.processing_allowed),
    require_approval: tri(settings?.require_approval),
    auto_erase_on_deprovision: tri(settings?.auto_erase_on_deprovision),
    confirm_no_data: tri(settings?.confirm_no_data),
    review_packages: tri(settings?.review_packages),
    retention_days: settings?.retention_days === undefined ? '' : String(settings.retention_days),
    repeat_window_days: settings?.repeat_window_days === undefined ? '' : String(settings.repeat_window_days),
    author_identity: settings?.author_identity ?? '',
    excluded_paths: (settings?.excluded_paths ?? []).join('\n'),
    holidays: (settings?.holidays ?? []).join('\n'),
    regulations: settings?.regulations ?? [],
    kept,
  };
}

/** Non-empty trimmed lines. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A whole number in [min, max] from the text, or a problem. Empty: undefined (inherits). */
function wholeNumber(text: string, min: number, max: number): number | string | undefined {
  if (!text.trim()) return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value >= min && value <= max ? value : `A whole number of days from ${min} to ${max}`;
}

/** Whether `day` is a real calendar day written `YYYY-MM-DD`. */
function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** The PUT body and the problems the API would report, field by field. */
export function toSettings(draft: Draft): { settings: PolicySettings; problems: Record<string, string[]> } {
  const settings = { ...draft.kept } as PolicySettings;
  const problems: Record<string, string[]> = {};
  for (const key of TRI_KEYS) if (draft[key]) settings[key] = draft[key] === 'true';
  const retention = wholeNumber(draft.retention_days, 1, 3650);
  if (typeof retention === 'string') problems.retention_days = [retention];
  else if (retention !== undefined) settings.retention_days = retention;
  const repeat = wholeNumber(draft.repeat_window_days, 0, 365);
  if (typeof repeat === 'string') problems.repeat_window_days = [repeat];
  else if (repeat !== undefined) settings.repeat_window_days = repeat;
  if (draft.author_identity) settings.author_identity = draft.author_identity;
  const paths = lines(draft.excluded_paths);
  if (paths.length) {
    if (new Set(paths).size !== paths.length) problems.excluded_paths = ['Each path once'];
    else if (paths.length > 100) problems.excluded_paths = ['At most 100 paths'];
    else if (paths.some((path) => [...path].length > 500)) problems.excluded_paths = ['Each path at most 500 characters'];
    else settings.excluded_paths = paths;
  }
  const days = lines(draft.holidays);
  if (days.length) {
    const wrong = days.find((day) => !isCalendarDay(day));
    if (wrong !== undefined) problems.holidays = [`Not a calendar day written YYYY-MM-DD: ${wrong}`];
    else if (new Set(days).size !== days.length) problems.holidays = ['Each day once'];
    else if (days.length > 200) problems.holidays = ['At most 200 days'];
    else settings.holidays = days;
  }
  if (draft.regulations.length) settings.regulations = draft.regulations;
  return { settings, problems };
}
