import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/** Id prefixes: `pr_` privacy request, `int_` integration, `chg_` change event, `tok_` API token, `aud_` audit event, `sub_` subject. */
export type IdPrefix = 'pr' | 'int' | 'chg' | 'tok' | 'aud' | 'sub';

/**
 * A new prefixed, time-sortable id: `<prefix>_<ULID>` (26 Crockford base32 characters,
 * millisecond time then randomness; monotonic within one process). Source: ULID spec.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
