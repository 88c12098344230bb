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
});

/** Revision of {@link DEFAULT_POLICY}; part of every effective policy version. */
export const DEFAULTS_REVISION = 1;

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
};

const FIELDS = Object.keys(DEFAULT_POLICY) as (keyof Policy)[];

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The result of {@link mergePolicy}. */
export interface MergedPolicy {
  policy: Policy;
  /** For each field, the layer that last changed its value (a layer repeating a value changes nothing). */
  sources: PolicySources;
}

/**
 * Merges layers, least specific first, so that the stricter value wins: AND for
 * `processing_allowed`, minimum `retention_days`, the most private `author_identity`, union of
 * `excluded_paths` and `regulations`, OR for `require_approval` and `auto_erase_on_deprovision`.
 *
 * @param layers - the workspace and repository layers, each possibly absent.
 */
export function mergePolicy(layers: { name: LayerName; settings: PolicyLayerSettings | null }[]): MergedPolicy {
  const policy = structuredClone(DEFAULT_POLICY) as Policy;
  const sources = Object.fromEntries(FIELDS.map((f) => [f, 'default'])) as PolicySources;
  for (const { name, settings } of layers) {
    if (!settings) continue;
    for (const field of FIELDS) {
      const value = settings[field];
      if (value === undefined) continue;
      const merged = (STRICTER[field] as (a: unknown, b: unknown) => unknown)(policy[field], value);
      if (!sameValue(merged, policy[field])) {
        (policy as unknown as Record<string, unknown>)[field] = merged;
        sources[field] = name;
      }
    }
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
