import taxonomy from './data-categories.json' with { type: 'json' };

/** One data category: its dotted key (a Fides default-taxonomy key), its name in plain words, its parent. */
export interface DataCategory {
  /** Dotted key, e.g. `user.contact.email`; a key covers its descendants. */
  readonly fides_key: string;
  /** What it is, in plain words (for people: the console, letters). */
  readonly name: string;
  /** The parent's key; null for the roots `user` and `system`. */
  readonly parent_key: string | null;
}

/**
 * The data categories the service accepts (PRODUCT §2.14): the keys of the Fides (fideslang)
 * default taxonomy, so a team's Fides datasets validate unchanged, named in this service's own
 * plain words (`data-categories.json`, written here: docs/decisions.md, "Data categories"):
 * `user.*` (personal data) and `system.*` (operational data).
 */
export const DATA_CATEGORIES: readonly DataCategory[] = Object.freeze(
  taxonomy.categories.map((c) => Object.freeze({ fides_key: c.key, name: c.name, parent_key: c.parent })),
);

/** Which taxonomy the keys follow. */
export const TAXONOMY_SOURCE = Object.freeze({ keys_compatible_with: taxonomy.keys_compatible_with });

/** The six keys the service's own store holds (PRODUCT §1); the console offers these first. */
export const CORE_SCOPE_KEYS = [
  'user',
  'user.account',
  'user.contact',
  'user.contact.email',
  'user.name',
  'user.content',
] as const;

/**
 * Every key a request's `scope` and a data system's `categories` may name (PRODUCT §1, §2.14):
 * the six core keys first, then every other `user.*` key of the taxonomy in its order. This order
 * is the order of the `literal_error` message (the Pydantic model of the golden files uses it too).
 */
export const SCOPE_KEYS: readonly string[] = Object.freeze([
  ...CORE_SCOPE_KEYS,
  ...DATA_CATEGORIES.map((c) => c.fides_key).filter(
    (k) => (k === 'user' || k.startsWith('user.')) && !(CORE_SCOPE_KEYS as readonly string[]).includes(k),
  ),
]);
/** A scope key (any `user.*` key of the taxonomy). */
export type ScopeKey = string;

const ALL_KEYS = new Set(DATA_CATEGORIES.map((c) => c.fides_key));
const SCOPE_SET = new Set(SCOPE_KEYS);

/** True when `key` may be a request scope or a data system category (a `user.*` key of the taxonomy). */
export function isScopeKey(key: string): boolean {
  return SCOPE_SET.has(key);
}

/** True when `key` may label a dataset field (any key of the taxonomy, `system.*` included). */
export function isDataCategory(key: string): boolean {
  return ALL_KEYS.has(key);
}

/** True when `key` is operational data (`system` or below): never in a package. */
export function isSystemCategory(key: string): boolean {
  return coversKey('system', key);
}

/** True when `a` covers `b`: the same key or one of its ancestors (fideslang-style dotted keys). */
export function coversKey(a: string, b: string): boolean {
  return a === b || b.startsWith(`${a}.`);
}

/** True when some key of `scope` covers `category` (a field is in a request's scope). */
export function withinScope(scope: readonly string[], category: string): boolean {
  return scope.some((key) => coversKey(key, category));
}

const NAMES = new Map(DATA_CATEGORIES.map((c) => [c.fides_key, c.name]));

/**
 * A category's plain name (`E-mail address`, `IP addresses`), or its nearest named ancestor's
 * (`Personal data` at the root): what a person reads, never the key (PRODUCT §2.13, §2.17).
 */
export function categoryName(key: string): string {
  for (let k = key; k !== ''; k = k.includes('.') ? k.slice(0, k.lastIndexOf('.')) : '') {
    const name = NAMES.get(k);
    if (name) return name;
  }
  return 'Personal data';
}
