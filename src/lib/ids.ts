import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * Cryptographic randomness for ULIDs, drawn from a pooled buffer: the ulid package asks for one
 * random number per character, and a system call each time was a measurable cost per request.
 */
const pool = new Uint32Array(1024);
let next = pool.length;
function pooledRandom(): number {
  if (next >= pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return (pool[next++] as number) / 0x1_0000_0000;
}

const nextUlid = monotonicFactory(pooledRandom);

/** Id prefixes: `pr_` privacy request, `int_` integration, `chg_` change event, `tok_` API token, `aud_` audit event, `sub_` subject, `ep_` webhook endpoint, `msg_` outbound message, `sys_` data system, `task_` data task, `note_` request note, `form_` privacy-center submission (before 2026-12 `pcs_`, which stays API tokens' alone), `mail_` mail to a person, `oo_` opt-out or opt-in (PRODUCT §2.18), `agt_` DRP authorized agent, `cb_` DRP status callback (§2.19), `red_` a redaction of a package (§2.20). */
export type IdPrefix =
  | 'pr'
  | 'int'
  | 'chg'
  | 'tok'
  | 'aud'
  | 'sub'
  | 'ep'
  | 'msg'
  | 'sys'
  | 'task'
  | 'note'
  | 'form'
  | 'mail'
  | 'oo'
  | 'agt'
  | 'cb'
  | 'red';

/**
 * A new prefixed, time-sortable id: `<prefix>_<ULID>` (26 Crockford base32 characters,
 * millisecond time then 80 random bits; monotonic within one process). Source: ULID spec.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
