/**
 * The audit hash chain (audit-chain.fns.ts): the hash format, and that `verifyChain` catches an
 * edited field, a removed middle entry, a removed tail, swapped entries and a tampered prev_hash,
 * naming the first broken entry; `linkEntries` (a batch's appends) links exactly as one-by-one appends.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  type ChainedFields,
  chainHash,
  GENESIS_HASH,
  linkEntries,
  verifyChain,
} from '../../src/modules/audit/audit-chain.fns.js';

type Entry = ChainedFields & { prev_hash: string; hash: string };

/** A valid chain of `n` entries and its head, built the way appendAuditEvent does. */
function buildChain(n: number): { entries: Entry[]; head: { seq: number; hash: string } } {
  const entries: Entry[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const fields: ChainedFields = {
      seq,
      occurred_at: `2026-05-0${1 + (seq % 9)}T10:00:00.000Z`,
      actor: seq % 2 ? 'token:tok_01' : 'worker',
      action: seq % 2 ? 'privacy_request.created' : 'privacy_request.completed',
      target_type: 'privacy_request',
      target_id: `pr_${seq}`,
      workspace_id: seq === 3 ? null : 'acme',
      details: JSON.stringify({ n: seq, status: 'queued' }),
    };
    const hash = chainHash(prev, fields);
    entries.push({ ...fields, prev_hash: prev, hash });
    prev = hash;
  }
  return { entries, head: { seq: n, hash: prev } };
}

/** Copies so a test's tampering never leaks into another. */
const copy = (entries: Entry[]) => entries.map((e) => ({ ...e }));

/** Recomputes prev_hash and hash from `from` (index) on, as a forger who can write every row would. */
function rechain(entries: Entry[], from: number): { seq: number; hash: string } {
  let prev = from === 0 ? GENESIS_HASH : (entries[from - 1] as Entry).hash;
  for (let i = from; i < entries.length; i++) {
    const e = entries[i] as Entry;
    e.prev_hash = prev;
    e.hash = chainHash(prev, e);
    prev = e.hash;
  }
  return { seq: entries.length, hash: prev };
}

describe('chainHash', () => {
  test('is SHA-256 hex of prev_hash, a newline, and the JSON array of the fields in order', () => {
    const fields: ChainedFields = {
      seq: 1,
      occurred_at: '2026-05-01T10:00:00.000Z',
      actor: 'worker',
      action: 'privacy_request.completed',
      target_type: 'privacy_request',
      target_id: 'pr_1',
      workspace_id: null,
      details: '{"attempt":1}',
    };
    const body =
      '[1,"2026-05-01T10:00:00.000Z","worker","privacy_request.completed","privacy_request","pr_1",null,"{\\"attempt\\":1}"]';
    const expected = createHash('sha256').update(`${GENESIS_HASH}\n${body}`).digest('hex');
    assert.equal(chainHash(GENESIS_HASH, fields), expected);
    assert.match(expected, /^[0-9a-f]{64}$/);
  });

  test('changes with every covered field and with the previous hash', () => {
    const { entries } = buildChain(1);
    const base = entries[0] as Entry;
    const original = chainHash(GENESIS_HASH, base);
    const variants: Partial<ChainedFields>[] = [
      { seq: 2 },
      { occurred_at: '2026-05-01T10:00:00.001Z' },
      { actor: 'token:tok_02' },
      { action: 'privacy_request.failed' },
      { target_type: 'api_token' },
      { target_id: 'pr_2' },
      { workspace_id: 'other' },
      { workspace_id: null },
      { details: '{"n":1, "status":"queued"}' },
    ];
    for (const change of variants)
      assert.notEqual(chainHash(GENESIS_HASH, { ...base, ...change }), original, JSON.stringify(change));
    assert.notEqual(chainHash('f'.repeat(64), base), original);
  });

  test('field boundaries cannot be shifted (JSON array, not concatenation)', () => {
    const { entries } = buildChain(1);
    const base = entries[0] as Entry;
    const shifted = { ...base, actor: `${base.actor}privacy_request`, action: '.created' };
    assert.notEqual(chainHash(GENESIS_HASH, shifted), chainHash(GENESIS_HASH, base));
  });
});

describe('verifyChain', () => {
  test('an intact chain is null (and so is the empty chain with the genesis head)', () => {
    const { entries, head } = buildChain(6);
    assert.equal(verifyChain(entries, head), null);
    assert.equal(verifyChain([], { seq: 0, hash: GENESIS_HASH }), null);
  });

  test('an empty chain whose head names entries: head mismatch (everything deleted)', () => {
    const { head } = buildChain(3);
    assert.deepEqual(verifyChain([], head), { seq: 3, problem: 'head_mismatch' });
  });

  test('an edited field: hash mismatch at that entry', () => {
    const { entries, head } = buildChain(6);
    for (const [field, value] of [
      ['details', JSON.stringify({ n: 4, status: 'completed' })],
      ['actor', 'token:tok_evil'],
      ['occurred_at', '2026-01-01T00:00:00.000Z'],
      ['workspace_id', 'other'],
    ] as const) {
      const tampered = copy(entries);
      (tampered[3] as Record<string, unknown>)[field] = value;
      assert.deepEqual(verifyChain(tampered, head), { seq: 4, problem: 'hash_mismatch' }, field);
    }
  });

  test('an edited entry whose own hash was recomputed: the next entry no longer links to it', () => {
    const { entries, head } = buildChain(6);
    const tampered = copy(entries);
    const e = tampered[3] as Entry;
    e.details = '{}';
    e.hash = chainHash(e.prev_hash, e);
    assert.deepEqual(verifyChain(tampered, head), { seq: 5, problem: 'prev_hash_mismatch' });
  });

  test('an edit re-chained to the end still differs from the head', () => {
    const { entries, head } = buildChain(6);
    const tampered = copy(entries);
    (tampered[2] as Entry).actor = 'someone-else';
    const forgedHead = rechain(tampered, 2);
    assert.deepEqual(verifyChain(tampered, head), { seq: 6, problem: 'head_mismatch' });
    // Only rewriting the head too makes it pass: the head row is the anchor that must be protected.
    assert.equal(verifyChain(tampered, forgedHead), null);
  });

  test('a removed middle entry: gap at its seq', () => {
    const { entries, head } = buildChain(6);
    const tampered = copy(entries).filter((e) => e.seq !== 3);
    assert.deepEqual(verifyChain(tampered, head), { seq: 3, problem: 'gap' });
  });

  test('a removed middle entry with the later seqs renumbered: prev_hash mismatch where it was', () => {
    const { entries, head } = buildChain(6);
    const tampered = copy(entries).filter((e) => e.seq !== 3);
    tampered.forEach((e, i) => (e.seq = i + 1));
    assert.deepEqual(verifyChain(tampered, head), { seq: 3, problem: 'prev_hash_mismatch' });
  });

  test('a removed first entry: gap at 1', () => {
    const { entries, head } = buildChain(4);
    assert.deepEqual(verifyChain(copy(entries).slice(1), head), { seq: 1, problem: 'gap' });
  });

  test('a removed tail (head left as it was): head mismatch', () => {
    const { entries, head } = buildChain(6);
    assert.deepEqual(verifyChain(copy(entries).slice(0, 5), head), { seq: 6, problem: 'head_mismatch' });
    assert.deepEqual(verifyChain(copy(entries).slice(0, 2), head), { seq: 6, problem: 'head_mismatch' });
  });

  test('a removed tail with the head seq lowered but its hash kept: head mismatch', () => {
    const { entries, head } = buildChain(6);
    assert.deepEqual(verifyChain(copy(entries).slice(0, 5), { seq: 5, hash: head.hash }), { seq: 5, problem: 'head_mismatch' });
  });

  test('two entries swapped (their seqs exchanged): prev_hash mismatch at the first', () => {
    const { entries, head } = buildChain(6);
    const tampered = copy(entries);
    const [a, b] = [tampered[1] as Entry, tampered[2] as Entry];
    [a.seq, b.seq] = [b.seq, a.seq];
    tampered.sort((x, y) => x.seq - y.seq);
    assert.deepEqual(verifyChain(tampered, head), { seq: 2, problem: 'prev_hash_mismatch' });
  });

  test('two entries out of order (seqs kept): gap at the first out-of-place position', () => {
    const { entries, head } = buildChain(6);
    const tampered = copy(entries);
    [tampered[1], tampered[2]] = [tampered[2] as Entry, tampered[1] as Entry];
    assert.deepEqual(verifyChain(tampered, head), { seq: 2, problem: 'gap' });
  });

  test('a tampered prev_hash: prev_hash mismatch at that entry', () => {
    const { entries, head } = buildChain(6);
    const tampered = copy(entries);
    (tampered[4] as Entry).prev_hash = 'a'.repeat(64);
    assert.deepEqual(verifyChain(tampered, head), { seq: 5, problem: 'prev_hash_mismatch' });
    const first = copy(entries);
    (first[0] as Entry).prev_hash = (entries[5] as Entry).hash;
    assert.deepEqual(verifyChain(first, head), { seq: 1, problem: 'prev_hash_mismatch' });
  });

  test('a tampered hash: hash mismatch at that entry', () => {
    const { entries, head } = buildChain(6);
    const tampered = copy(entries);
    (tampered[5] as Entry).hash = '0'.repeat(64);
    assert.deepEqual(verifyChain(tampered, head), { seq: 6, problem: 'hash_mismatch' });
  });

  test('a duplicated entry: gap', () => {
    const { entries, head } = buildChain(4);
    const tampered = copy(entries);
    tampered.splice(2, 0, { ...(tampered[1] as Entry) });
    assert.deepEqual(verifyChain(tampered, head), { seq: 3, problem: 'gap' });
  });

  test('an appended entry the head does not know: head mismatch', () => {
    const { entries, head } = buildChain(4);
    const longer = buildChain(5).entries;
    assert.deepEqual(verifyChain(longer, head), { seq: 4, problem: 'head_mismatch' });
    assert.equal(entries.length, 4);
  });
});

describe('linkEntries', () => {
  const unlinked = (entries: Entry[]) => entries.map(({ seq: _seq, prev_hash: _prev, hash: _hash, ...fields }) => fields);

  test('links a batch onto an empty chain exactly as one-by-one appends do', () => {
    const { entries, head } = buildChain(5);
    const linked = linkEntries({ seq: 0, hash: GENESIS_HASH }, unlinked(entries));
    assert.deepEqual(linked.linked, entries);
    assert.deepEqual(linked.head, head);
    assert.equal(verifyChain(linked.linked, linked.head), null);
  });

  test('continues after an existing head: the second half links onto the first', () => {
    const { entries, head } = buildChain(6);
    const first = linkEntries({ seq: 0, hash: GENESIS_HASH }, unlinked(entries.slice(0, 2)));
    const second = linkEntries(first.head, unlinked(entries.slice(2)));
    assert.deepEqual([...first.linked, ...second.linked], entries);
    assert.deepEqual(second.head, head);
  });

  test('no entries: the head stays as it was', () => {
    const head = { seq: 7, hash: 'a'.repeat(64) };
    assert.deepEqual(linkEntries(head, []), { linked: [], head });
  });
});
