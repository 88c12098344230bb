/**
 * What a system answered (PRODUCT §2.13, issue 22 item 1). Before: an officer marked a manual
 * Zendesk task completed with the note "3 tickets found", and the letter told the person
 * "Zendesk: This system holds no data of yours". Now a completed access/export result carries
 * `data` or `records` (a 422 at `["body"]` otherwise, the Pydantic golden cases of route
 * `task_result_package`, run here against a real access task), or `delivered_separately: true`;
 * the package keeps the counts (`system_answers`); the letter says "holds no data" only when the
 * system said so, shows the counts and says when the answer is sent separately; the task's note is
 * on the task and its audit entry (the timeline's) holds the note's SHA-256. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import { dialects } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { auditOf, type Fixture, fileRequest, openFixture, requestRow, testWorker } from '../../helpers/worker.js';

interface GoldenCase {
  name: string;
  route: string;
  body: string;
  expected: { status: 422; body: unknown } | { status: 'valid' };
}

const golden = (
  JSON.parse(readFileSync(new URL('../../golden/validation-cases.json', import.meta.url), 'utf8')) as GoldenCase[]
).filter((c) => c.route === 'task_result_package');

const NOTE = '3 tickets found';

for (const dialect of dialects()) {
  describe(`what a system answered (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;
    let reporter: string;

    before(async () => {
      f = await openFixture(() => dialect.create(), { workspaces: ['acme'] });
      admin = await f.t.bearer(['admin'], ['acme']);
      reporter = await f.t.bearer(['tasks:write', 'privacy:read'], ['acme']);
      // The subject is unknown here: a zero-count answer would otherwise wait for an identity
      // review (identity-unmatched.test.ts); these tests are about what the letter says.
      await f.t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
      await addSystem(f.t, admin, {
        key: 'zendesk',
        name: 'Zendesk',
        kind: 'manual',
        categories: ['user'],
        request_types: ['access'],
      });
    });
    after(() => f.close());

    /** Files an access request and runs the worker: its one pending Zendesk task. */
    async function accessTask() {
      const filed = await fileRequest(f, { request_type: 'access', scope: ['user'] });
      const worker = testWorker(f, REQUEST_HANDLERS);
      while (await worker.runOnce());
      const [task] = await tasksOf(f.t.services.database.db, filed.id);
      assert.equal(task?.status, 'pending');
      return { requestId: filed.id, taskId: task.id };
    }
    const letter = async (id: string) => {
      const res = await f.t.app.inject({
        url: `/api/v1/privacy/requests/${id}/package?format=html`,
        headers: { authorization: f.auth },
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.body;
    };
    const packageOf = async (id: string) =>
      (await f.t.app.inject({ url: `/api/v1/privacy/requests/${id}/package`, headers: { authorization: f.auth } })).json();

    it('has the Pydantic golden cases of an access task', () => assert.ok(golden.length >= 6));

    for (const c of golden)
      it(`golden: ${c.name}`, async () => {
        const { requestId, taskId } = await accessTask();
        const res = await f.t.app.inject({
          method: 'POST',
          url: `/api/v1/data-tasks/${taskId}/result`,
          headers: { authorization: reporter, 'content-type': 'application/json' },
          payload: c.body,
        });
        if (c.expected.status === 'valid') {
          assert.equal(res.statusCode, 200, res.body);
          return;
        }
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(res.json(), c.expected.body);
        const [task] = await tasksOf(f.t.services.database.db, requestId);
        assert.deepEqual([task?.status, task?.result], ['pending', null], 'nothing stored');
        assert.deepEqual(
          (await auditOf(f, taskId)).map((a) => a.action),
          ['data_task.created'],
          'nothing audited',
        );
      });

    it('a deletion task still completes with erased counts only (the rule is for access and export)', async () => {
      await addSystem(f.t, admin, { key: 'desk-erase', categories: ['user'], request_types: ['deletion'] });
      const filed = await fileRequest(f, { request_type: 'deletion', scope: ['user'] });
      const worker = testWorker(f, REQUEST_HANDLERS);
      while (await worker.runOnce());
      const [task] = await tasksOf(f.t.services.database.db, filed.id);
      const res = await postResult(f.t, reporter, task!.id, {
        outcome: 'completed',
        kept: [{ category: 'user', reason: 'tax law' }],
      });
      assert.equal(res.statusCode, 200, res.body);
    });

    it('counts without data: the letter shows them and never says "holds no data"', async () => {
      const { requestId, taskId } = await accessTask();
      const res = await postResult(f.t, reporter, taskId, { outcome: 'completed', records: { 'user.content': 3 }, note: NOTE });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await requestRow(f, requestId)).status, 'completed');
      const pkg = await packageOf(requestId);
      assert.deepEqual(pkg.systems, { zendesk: {} });
      assert.deepEqual(pkg.system_answers, { zendesk: { records: { 'user.content': 3 } } });
      const html = await letter(requestId);
      assert.match(html, /<h3>Zendesk \(zendesk\)<\/h3>/);
      assert.doesNotMatch(html, /holds no data/);
      assert.match(html, /Records it holds about you: Content written or uploaded: 3\./);
      assert.match(html, /did not send their content/);
    });

    it("a later deletion of the person erases the task's note; its counts and the audit hash stay", async () => {
      const subject = { subject_id: 'note-subject' };
      const filed = await fileRequest(f, { ...subject, request_type: 'access', scope: ['user'] });
      const worker = testWorker(f, REQUEST_HANDLERS);
      while (await worker.runOnce());
      const [task] = await tasksOf(f.t.services.database.db, filed.id);
      const noted = await postResult(f.t, reporter, task!.id, {
        outcome: 'completed',
        records: { 'user.content': 3 },
        note: NOTE,
      });
      assert.equal(noted.statusCode, 200, noted.body);
      const deletion = await fileRequest(f, { ...subject, request_type: 'deletion', scope: ['user'] });
      while (await worker.runOnce());
      // A system of an earlier test takes part in deletions: it answers, and the erasure runs.
      for (const t of await tasksOf(f.t.services.database.db, deletion.id)) {
        const erased = await postResult(f.t, reporter, t.id, { outcome: 'completed', erased: { user: 1 } });
        assert.equal(erased.statusCode, 200, erased.body);
      }
      while (await worker.runOnce());
      assert.equal((await requestRow(f, deletion.id)).status, 'completed', JSON.stringify(await requestRow(f, deletion.id)));
      const [after] = await tasksOf(f.t.services.database.db, filed.id);
      const result = JSON.parse(after!.result!) as Record<string, unknown>;
      assert.equal(result.note, undefined, 'the note is erased');
      assert.deepEqual(result.records, { 'user.content': 3 }, 'the counts stay');
      const stored = await f.t.services.database.db
        .selectFrom('data_tasks')
        .select('result')
        .where('request_id', 'in', [filed.id, deletion.id])
        .execute();
      assert.ok(
        stored.length >= 2 && stored.every((r) => !(r.result ?? '').includes(NOTE)),
        "none of the person's task results holds the note",
      );
      const hashes = (await auditOf(f, task!.id)).map((e) => e.details.note_sha256).filter((h) => h !== undefined);
      assert.deepEqual(hashes, [createHash('sha256').update(NOTE, 'utf8').digest('hex')], 'the audit entry keeps the hash');
    });

    it('an answer delivered separately is said as such, with its counts', async () => {
      const { requestId, taskId } = await accessTask();
      const res = await postResult(f.t, reporter, taskId, {
        outcome: 'completed',
        delivered_separately: true,
        note: 'exported the tickets and posted them',
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().result.delivered_separately, true);
      const html = await letter(requestId);
      assert.match(html, /This system’s answer is sent to you separately, not in this letter\./);
      assert.doesNotMatch(html, /holds no data/);
      assert.deepEqual((await packageOf(requestId)).system_answers, { zendesk: { delivered_separately: true } });
      const audit = (await auditOf(f, taskId)).find((a) => a.action === 'data_task.completed');
      assert.equal(audit?.details.delivered_separately, true);
    });

    it('"holds no data" when the system said so: all counts zero, or empty data', async () => {
      const zero = await accessTask();
      assert.equal(
        (await postResult(f.t, reporter, zero.taskId, { outcome: 'completed', records: { user: 0 } })).statusCode,
        200,
      );
      const zeroHtml = await letter(zero.requestId);
      assert.match(zeroHtml, /This system holds no data of yours\./);
      assert.match(zeroHtml, /Records it holds about you: Personal data: 0\./);
      const empty = await accessTask();
      assert.equal((await postResult(f.t, reporter, empty.taskId, { outcome: 'completed', data: {} })).statusCode, 200);
      assert.match(await letter(empty.requestId), /This system holds no data of yours\./);
    });

    it("data and counts: both shown; the note is on the task, its hash in the timeline's audit entry", async () => {
      const { requestId, taskId } = await accessTask();
      const res = await postResult(f.t, reporter, taskId, {
        outcome: 'completed',
        records: { 'user.content': 1 },
        data: { 'user.content': [{ subject: 'Refund please' }] },
        note: NOTE,
      });
      assert.equal(res.statusCode, 200, res.body);
      const html = await letter(requestId);
      assert.match(html, /Refund please/);
      assert.match(html, /Content written or uploaded: 1/);
      assert.doesNotMatch(html, /holds no data|did not send their content/);

      const task = await f.t.app.inject({ url: `/api/v1/data-tasks/${taskId}`, headers: { authorization: reporter } });
      assert.equal(task.json().result.note, NOTE);
      // The console's timeline reads the request's audit entries (its data tasks' included).
      const timeline = await f.t.app.inject({
        url: `/api/v1/audit-events?target_type=privacy_request&target_id=${requestId}`,
        headers: { authorization: admin },
      });
      assert.equal(timeline.statusCode, 200, timeline.body);
      const entry = (timeline.json().items as { action: string; target_id: string; details: Record<string, unknown> }[]).find(
        (e) => e.action === 'data_task.completed',
      );
      assert.equal(entry?.target_id, taskId);
      assert.equal(entry?.details.note_sha256, createHash('sha256').update(NOTE, 'utf8').digest('hex'));
      assert.doesNotMatch(timeline.body, /3 tickets found/, 'the chain holds no free text');
    });
  });
}
