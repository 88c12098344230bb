/**
 * The shape of the growth benchmark's data set, from one scale factor, and the small
 * deterministic helpers its generators share (a seeded PRNG, ULID-style ids for past times,
 * RFC 3339 times). Same scale, same rows: a run is reproducible.
 */

/** How much to seed. At scale 1: 1 M change events and 100 k privacy requests (issue 5, item 2). */
export interface SeedPlan {
  scale: number;
  /** Workspaces, `acme` (the bench workspace) first; the rest are `ws-001`…. */
  workspaces: string[];
  reposPerWorkspace: number;
  /** Identity-provider users (okta), each with a linked GitHub account, spread over the workspaces. */
  subjects: number;
  changeEvents: number;
  privacyRequests: number;
  /** Change events and requests are spread over this many past days (acme's events over 14: its retention). */
  historyDays: number;
}

/** The plan for `scale` (e.g. 0.01 in CI). Every count is at least a few rows. */
export function seedPlan(scale: number): SeedPlan {
  const workspaceCount = Math.min(50, Math.max(3, Math.round(50 * scale)));
  const workspaces = ['acme', ...Array.from({ length: workspaceCount - 1 }, (_, i) => `ws-${String(i + 1).padStart(3, '0')}`)];
  return {
    scale,
    workspaces,
    reposPerWorkspace: 40,
    subjects: Math.max(60, Math.round(20_000 * scale)),
    changeEvents: Math.max(100, Math.round(1_000_000 * scale)),
    privacyRequests: Math.max(50, Math.round(100_000 * scale)),
    historyDays: 60,
  };
}

/** A seeded PRNG (mulberry32): floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An integer in [0, n). */
export function pick(random: () => number, n: number): number {
  return Math.floor(random() * n);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `<prefix>_<ULID>` for time `ms` (as src/lib/ids.ts), its 80 random bits from `random`. */
export function pastId(prefix: string, ms: number, random: () => number): string {
  let time = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[pick(random, 32)];
  return `${prefix}_${time}${tail}`;
}

/** RFC 3339 UTC with milliseconds, as the service stores times. */
export function at(ms: number): string {
  return new Date(ms).toISOString();
}

/** Lower-case hex of `length` characters. */
export function hex(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += pick(random, 16).toString(16);
  return out;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The GitHub account id of seeded subject `k` (its okta id is `u<k>`). */
export function githubAccountOf(k: number): string {
  return String(100_000 + k);
}
