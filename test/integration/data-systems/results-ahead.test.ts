/**
 * The fast path of a request's last task result (issue 23 item 2): the other tasks' results are
 * read before the transaction that assembles the package (`resultsAheadOfLastTask`), and the
 * transaction uses them only while they are still the stored version; one that changed meanwhile
 * (a note erased, its data dropped) is read again. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { passTaskResults } from '../../../src/modules/data-systems/task-data-pass.js';
import { taskStatusesOfRequest } from '../../../src/modules/data-systems/data-task-result.repository.js';
import { resultsAheadOfLastTask } from '../../../src/modules/privacy-requests/lifecycle/task-result.js';
import { eraseTaskNotes } from '../../../src/modules/subject-data/erasure.repository.js';
import { dialects } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { type Fixture, fileRequest, openFixture, processAll, requestRow } from '../../helpers/worker.js';

for (const dialect of dialects()) {
  describe(`task results read ahead of the request's end (${dialect.name})`, () => {
    let f: Fixture;
    afterEach(() => f?.close());
    const db = () => f.t.services.database.db;

    /** An access (or `type`) request waiting for `crm` and `zendesk`; crm answered with data and a note. */
    async function oneAnswered(type = 'access') {
      f = await openFixture(dialect.create);
      const admin = await f.t.bearer(['admin'], ['acme']);
      const reporter = await f.t.bearer(['tasks:write'], ['acme']);
      for (const key of ['crm', 'zendesk'])
        await addSystem(f.t, admin, { key, categories: ['user'], request_types: ['access', 'deletion'] });
      const filed = await fileRequest(f, { request_type: type, scope: ['user'] });
      await processAll(f);
      const [crm, zendesk] = await tasksOf(db(), filed.id);
      const answer =
        type === 'access'
          ? { outcome: 'completed', data: { 'user.name': 'Ann' }, note: 'found by ann@example.com' }
          : { outcome: 'completed', records: { user: 1 }, note: 'found by ann@example.com' };
      const res = await postResult(f.t, reporter, crm!.id, answer);
      assert.equal(res.statusCode, 200, res.body);
      return { filed, crm: crm!, zendesk: zendesk!, reporter };
    }

    it("reads the other tasks' results ahead only for the last pending task of an access request", async () => {
      const { crm, zendesk } = await oneAnswered();
      const last = (await tasksOf(db(), zendesk.request_id)).find((t) => t.id === zendesk.id)!;
      const ahead = await resultsAheadOfLastTask(db(), last);
      assert.deepEqual([...ahead.keys()], [crm.id]);
      assert.equal(ahead.get(crm.id)!.result?.note, 'found by ann@example.com');
      const answered = (await tasksOf(db(), crm.request_id)).find((t) => t.id === crm.id)!;
      assert.equal((await resultsAheadOfLastTask(db(), answered)).size, 0, 'a final task is no last pending one');
    });

    it('reads nothing ahead for a deletion (its report reads small results in the transaction)', async () => {
      const { zendesk } = await oneAnswered('deletion');
      assert.equal((await resultsAheadOfLastTask(db(), zendesk)).size, 0);
    });

    it('uses a result read ahead while it is the stored version, and reads one again that changed since', async () => {
      const { filed, crm, zendesk } = await oneAnswered();
      const ahead = await resultsAheadOfLastTask(db(), zendesk);
      // Marked, so the test sees which text the pass took (the stored one has no "marker").
      const marked = new Map([[crm.id, { ...ahead.get(crm.id)!, text: 'marker' }]]);
      const seen = async (readAhead: typeof marked) => {
        const texts: (string | null)[] = [];
        await db()
          .transaction()
          .execute(async (tx) => {
            const statuses = (await taskStatusesOfRequest(tx, filed.id)).filter((t) => t.id === crm.id);
            await passTaskResults(
              tx,
              statuses,
              new Date().toISOString(),
              (_t, text) => texts.push(text),
              async () => {},
              readAhead,
            );
            throw new Error('roll back: only what the pass saw matters here');
          })
          .catch((e: Error) => assert.match(e.message, /roll back/));
        return texts;
      };
      assert.deepEqual(await seen(marked), ['marker'], 'current: not read again');
      // A deletion of the person erases the note meanwhile: the version read ahead is stale.
      await db()
        .transaction()
        .execute((tx) => eraseTaskNotes(tx, [filed.id], new Date(Date.now() + 1000).toISOString()));
      const [text] = await seen(marked);
      assert.notEqual(text, 'marker', 'stale: read again');
      assert.equal((JSON.parse(text!) as { note?: string }).note, undefined, 'the stored version, without the note');
    });

    it('completes the request with every system in the package when the last result arrives', async () => {
      const { filed, zendesk, reporter } = await oneAnswered();
      const res = await postResult(f.t, reporter, zendesk.id, { outcome: 'completed', data: { 'user.contact': 'ann@x' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await requestRow(f, filed.id)).status, 'completed');
      const stored = await db()
        .selectFrom('request_results')
        .select('package')
        .where('request_id', '=', filed.id)
        .executeTakeFirstOrThrow();
      const pkg = JSON.parse(stored.package!) as { systems: Record<string, unknown> };
      assert.deepEqual(pkg.systems, { crm: { 'user.name': 'Ann' }, zendesk: { 'user.contact': 'ann@x' } });
      for (const task of await tasksOf(db(), filed.id))
        assert.equal((JSON.parse(task.result!) as { data?: unknown }).data, undefined);
    });
  });
}
