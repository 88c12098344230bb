/**
 * `privacyctl audit verify` (src/cli/commands/audit.command.ts) on a real database, run as an
 * operator runs it: an intact chain passes; an edited, removed, reordered or cut-off entry is
 * named. Four processes appending at once keep one contiguous chain (PostgreSQL row lock on the
 * head; SQLite's single writer). Verifying while another process appends never reports a broken
 * chain: the entries and the head are read in one snapshot (issue 11, item 9).
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { readChain } from '../../../src/modules/audit/audit.repository.js';
import { verifyChain } from '../../../src/modules/audit/audit-chain.fns.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { scriptArgs } from '../../helpers/node-script.js';
import { createBody } from '../../helpers/requests.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

let cli: BuiltCli;
before(() => {
  cli = buildPrivacyctl();
});
after(() => cli?.remove());

for (const dialect of dialects()) {
  describe(`privacyctl audit verify (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const verify = () => cli.run({ DATABASE_URL: database.url }, ['audit', 'verify']);
    const db = () => t.services.database.db;
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('audit_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    /** A fresh database with a series of audited writes: tokens, policy layers, requests. @returns the number of entries. */
    async function seed(): Promise<number> {
      database = await dialect.create();
      t = await startTestApp(database);
      const policy = await t.bearer(['policy:write', 'policy:read'], ['acme']);
      const privacy = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      await t.services.tokens.create({ name: 'ops', scopes: ['admin'], workspaces: ['*'], actor: 'cli' });
      for (const [url, payload] of [
        ['/api/v1/policies/workspaces/acme', { retention_days: 30, regulations: ['gdpr', 'ccpa'] }],
        ['/api/v1/policies/workspaces/acme/repositories/acme%2Fapi', { processing_allowed: false }],
        ['/api/v1/policies/workspaces/acme', { retention_days: 60 }],
      ] as const) {
        const res = await t.app.inject({ method: 'PUT', url, headers: { authorization: policy }, payload });
        assert.equal(res.statusCode, 200, res.body);
      }
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: privacy, 'idempotency-key': `audit-verify-${i}` },
          payload: createBody({ client_request_id: `audit-verify-${i}`, request_type: ['access', 'export', 'deletion'][i] }),
        });
        assert.equal(res.statusCode, 202, res.body);
      }
      const n = await count();
      assert.ok(n >= 9, `expected at least 9 audited writes, got ${n}`);
      return n;
    }

    afterEach(async () => {
      await t?.close();
      await database?.drop();
    });

    function assertBroken(result: ReturnType<typeof verify>, seq: number, problem: string) {
      assert.equal(result.status, 1, `stdout: ${result.stdout} stderr: ${result.stderr}`);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`audit chain broken at entry ${seq}: ${problem}`));
    }

    it('an intact chain: exit 0, "audit chain intact: N entries"', async () => {
      const n = await seed();
      const head = await db().selectFrom('audit_head').selectAll().executeTakeFirstOrThrow();
      assert.equal(head.seq, n);
      const seqs = (await db().selectFrom('audit_events').select('seq').orderBy('seq').execute()).map((r) => r.seq);
      assert.deepEqual(
        seqs,
        Array.from({ length: n }, (_, i) => i + 1),
      );
      const result = verify();
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, `audit chain intact: ${n} entries\n`);
    });

    it("an entry's details edited in SQL: exit 1 naming that entry", async () => {
      const n = await seed();
      const target = Math.ceil(n / 2);
      const { details } = await db()
        .selectFrom('audit_events')
        .select('details')
        .where('seq', '=', target)
        .executeTakeFirstOrThrow();
      await db().updateTable('audit_events').set({ details: '{"tampered":true}' }).where('seq', '=', target).execute();
      assertBroken(verify(), target, 'hash mismatch');
      // Putting the exact text back repairs it: the check is on content.
      await db().updateTable('audit_events').set({ details }).where('seq', '=', target).execute();
      assert.equal(verify().status, 0);
    });

    it('a middle entry deleted: exit 1 naming the gap', async () => {
      const n = await seed();
      const target = Math.ceil(n / 2);
      await db().deleteFrom('audit_events').where('seq', '=', target).execute();
      assertBroken(verify(), target, 'gap');
    });

    it('two entries with their seqs swapped: exit 1 naming the first', async () => {
      await seed();
      // Through a free seq: `seq` is unique.
      await db().updateTable('audit_events').set({ seq: -1 }).where('seq', '=', 4).execute();
      await db().updateTable('audit_events').set({ seq: 4 }).where('seq', '=', 5).execute();
      await db().updateTable('audit_events').set({ seq: 5 }).where('seq', '=', -1).execute();
      assertBroken(verify(), 4, 'prev hash mismatch');
    });

    it('the last entry deleted, the head left as it was: exit 1 (head mismatch)', async () => {
      const n = await seed();
      await db().deleteFrom('audit_events').where('seq', '=', n).execute();
      assertBroken(verify(), n, 'head mismatch');
    });

    it('the last entry deleted and the head moved back to its seq: still exit 1', async () => {
      const n = await seed();
      await db().deleteFrom('audit_events').where('seq', '=', n).execute();
      await db()
        .updateTable('audit_head')
        .set({ seq: n - 1 })
        .where('id', '=', 1)
        .execute();
      assertBroken(verify(), n - 1, 'head mismatch');
    });

    it('4 processes appending at once: exactly 100 new entries, seqs contiguous, chain intact', async () => {
      const n = await seed();
      const script = join(root, 'test', 'helpers', 'audit-appender.ts');
      const children: ChildProcessWithoutNullStreams[] = [];
      const outputs: string[] = [];
      const exits: Promise<number | null>[] = [];
      const ready: Promise<void>[] = [];
      for (let p = 0; p < 4; p++) {
        const child = spawn(process.execPath, [...scriptArgs(script), '25', `p${p}`], {
          cwd: root,
          env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
        });
        children.push(child);
        outputs[p] = '';
        child.stderr.on('data', (d: Buffer) => (outputs[p] += d.toString()));
        ready.push(
          new Promise((resolve) => {
            child.stdout.on('data', (d: Buffer) => {
              outputs[p] += d.toString();
              if ((outputs[p] ?? '').includes('ready')) resolve();
            });
          }),
        );
        exits.push(new Promise((resolve) => child.on('exit', resolve)));
      }
      await Promise.race([Promise.all(ready), Promise.all(exits)]);
      for (const child of children) child.stdin.write('go\n');
      const codes = await Promise.all(exits);
      assert.deepEqual(codes, [0, 0, 0, 0], outputs.join('\n---\n'));
      for (const out of outputs) assert.match(out ?? '', /done/);

      assert.equal(await count(), n + 100);
      const appended = await db().selectFrom('audit_events').select('actor').where('actor', 'like', 'appender:%').execute();
      assert.equal(appended.length, 100);
      for (let p = 0; p < 4; p++) assert.equal(appended.filter((a) => a.actor === `appender:p${p}`).length, 25);
      const seqs = (await db().selectFrom('audit_events').select('seq').orderBy('seq').execute()).map((r) => r.seq);
      assert.deepEqual(
        seqs,
        Array.from({ length: n + 100 }, (_, i) => i + 1),
      );
      const head = await db().selectFrom('audit_head').selectAll().executeTakeFirstOrThrow();
      assert.equal(head.seq, n + 100);
      const forks = await sql<{
        n: string | number;
      }>`select count(*) as n from (select prev_hash from audit_events group by prev_hash having count(*) > 1) f`.execute(db());
      assert.equal(Number(forks.rows[0]?.n), 0, 'no two entries share a predecessor');
      const result = verify();
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, `audit chain intact: ${n + 100} entries\n`);
    });

    it('verify while another process appends: many rounds, never a false "broken"', async () => {
      const n = await seed();
      // A writer in another process (two SQLite connections in one process stall each other), at
      // most 20 000 entries: every round reads the whole chain, so an unbounded writer made the
      // rounds' work grow with how slow the machine was (248 s of CPU on a loaded run, not 80).
      const writer = spawn(process.execPath, [...scriptArgs(join(root, 'test', 'helpers', 'audit-writer.ts')), '20000'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
      });
      let output = '';
      writer.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => writer.on('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        writer.stdout.on('data', (d: Buffer) => {
          output += d.toString();
          if (output.includes('ready')) resolve();
        });
        void exited.then(() => reject(new Error(`writer exited early: ${output}`)));
      });
      writer.stdin.write('go\n');
      const seen = new Set<number>();
      try {
        // In this process, through the repository the CLI uses: fast rounds while the writer commits.
        for (let round = 0; round < 150; round++) {
          const { entries, head } = await readChain(db());
          assert.equal(verifyChain(entries, head), null, `round ${round}: ${entries.length} entries, head ${head.seq}`);
          seen.add(entries.length);
        }
        // And as an operator runs it.
        for (let round = 0; round < 5; round++) {
          const result = verify();
          assert.equal(result.status, 0, `CLI round ${round}: ${result.stderr}`);
          assert.match(result.stdout, /^audit chain intact: \d+ entries\n$/);
          seen.add(Number(/(\d+) entries/.exec(result.stdout)?.[1]));
        }
      } finally {
        writer.stdin.end();
      }
      assert.equal(await exited, 0, output);
      const appended = Number(/appended (\d+)/.exec(output)?.[1]);
      assert.ok(appended > 0, output);
      // The rounds did overlap the writer: they saw the chain at several lengths.
      assert.ok(seen.size >= 3, `the chain grew during only ${seen.size} rounds`);
      assert.equal(await count(), n + appended);
      assert.equal(verify().stdout, `audit chain intact: ${n + appended} entries\n`);
    });
  });
}
