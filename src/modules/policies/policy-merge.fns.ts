import type { AuthorIdentity, LayerName, Policy, PolicyLayerSettings, PolicySources } from './policy.types.js';

/** The built-in defaults (PRODUCT.md §2.4). Bump {@link DEFAULTS_REVISION} whenever they change. */
export const DEFAULT_POLICY: Readonly<Policy> = Object.freeze<Policy>({
  processing_allowed: true,
  retention_days: 90,
  author_identity: 'pseudonymous',
  excluded_paths: [],
  regulations: ['gdpr'],
  require_approval: false,
  auto_erase_on_deprovision: false,
  confirm_no_data: true,
  holidays: [],
  repeat_window_days: 0,
  review_packages: false,
});

/** Revision of {@link DEFAULT_POLICY}; part of every effective policy version. */
export const DEFAULTS_REVISION = 5;

const PRIVACY_RANK: Record<AuthorIdentity, number> = { full: 0, pseudonymous: 1, none: 2 };

function union<T>(a: readonly T[], b: readonly T[]): T[] {
  return [...new Set([...a, ...b])];
}

/** Per field: the stricter of two values. A layer can tighten, never loosen. */
const STRICTER: { [K in keyof Policy]: (a: Policy[K], b: Policy[K]) => Policy[K] } = {
  processing_allowed: (a, b) => a && b,
  retention_days: (a, b) => Math.min(a, b),
  author_identity: (a, b) => (PRIVACY_RANK[b] > PRIVACY_RANK[a] ? b : a),
  excluded_paths: union,
  regulations: union,
  require_approval: (a, b) => a || b,
  auto_erase_on_deprovision: (a, b) => a || b,
  confirm_no_data: (a, b) => a || b,
  holidays: union,
  // A longer window looks at more requests before one runs: the stricter (PRODUCT §2.20).
  repeat_window_days: (a, b) => Math.max(a, b),
  // A review either layer asks for is done: the stricter (PRODUCT §2.20).
  review_packages: (a, b) => a || b,
};

const FIELDS = Object.keys(DEFAULT_POLICY) as (keyof Policy)[];

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The result of {@link mergePolicy}. */
export interface MergedPolicy {
  policy: Policy;
  /**
   * For each field, the layer that decided it: `default` when no layer set it, `workspace` when
   * the workspace set it, `repository` when the repository made it stricter still.
   */
  sources: PolicySources;
}

/**
 * Merges defaults < workspace < repository (PRODUCT.md §2.4). The workspace layer replaces a
 * default field by field (its owner decides, e.g. `regulations: ["ccpa"]` or 365 retention days);
 * the repository layer can only tighten what that gives: AND for `processing_allowed`, minimum
 * `retention_days`, the most private `author_identity`, union of `excluded_paths`,
 * `regulations` and `holidays`, OR for `require_approval`, `auto_erase_on_deprovision`, `confirm_no_data`
 * and `review_packages`, the larger `repeat_window_days`.
 *
 * @param layers - each layer's settings, or null when it is not set. Inputs are not mutated.
 */
export function mergePolicy(layers: {
  workspace: PolicyLayerSettings | null;
  repository: PolicyLayerSettings | null;
}): MergedPolicy {
  const policy = structuredClone(DEFAULT_POLICY) as Policy;
  const sources = Object.fromEntries(FIELDS.map((f) => [f, 'default'])) as PolicySources;
  const set = (field: keyof Policy, value: unknown, source: LayerName) => {
    (policy as unknown as Record<string, unknown>)[field] = structuredClone(value);
    sources[field] = source;
  };
  for (const field of FIELDS) {
    const value = layers.workspace?.[field];
    if (value !== undefined) set(field, Array.isArray(value) ? union([], value) : value, 'workspace');
  }
  for (const field of FIELDS) {
    const value = layers.repository?.[field];
    if (value === undefined) continue;
    const merged = (STRICTER[field] as (a: unknown, b: unknown) => unknown)(policy[field], value);
    if (!sameValue(merged, policy[field])) set(field, merged, 'repository');
  }
  return { policy, sources };
}

/**
 * The effective policy's version: `d<defaults revision>.w<workspace layer version>.r<repository
 * layer version>` (0 for an absent layer). Layer versions never repeat, so neither does this.
 */
export function effectiveVersion(workspaceVersion: number, repositoryVersion: number): string {
  return `d${DEFAULTS_REVISION}.w${workspaceVersion}.r${repositoryVersion}`;
}

/** Repository keys are case-insensitive (GitHub and GitLab route them so): stored and matched lower-cased. */
export function normalizeRepository(repository: string): string {
  return repository.toLowerCase();
}
