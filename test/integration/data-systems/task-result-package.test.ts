/**
 * The package a request's systems complete (issue 23 item 2), on SQLite and PostgreSQL: assembled
 * from each task's result read once, one task at a time, with pauses (the event loop is free)
 * between slices of results; its text is exactly `JSON.stringify` of the own package with
 * `systems.<key>` added; each task keeps its result without `data` and its size; the per-request
 * cap sums the sizes stored with the results (to the byte); and the assembly is atomic with the
 * request's unit of work: stopped half-way, nothing of it is stored.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { runUnitOfWork } from '../../../src/db/unit-of-work.js';
import { RESULT_SLICE_CHARS } from '../../../src/modules/data-systems/task-data-pass.js';
import { afterOwnStep } from '../../../src/workflows/requests/request-end.js';
import { dialects } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { type Fixture, processAll, fileRequest, openFixture, requestRow } from '../../helpers/worker.js';

/** `data` of more than `chars` characters of JSON (contact records of ~60 characters, two thirds of them 2-byte). */
function dataOf(label: string, chars: number): Record<string, unknown> {
  const records = Array.from({ length: Math.ceil(chars / 50) }, (_, i) => ({ value: `${label} ${i} ${'é'.repeat(40)}` }));
  return { 'user.contact': records };
}

for (const dialect of dialects()) {
  describe(`a package assembled from task results (${dialect.name})`, () => {
    let f: Fixture;
    afterEach(() => f?.close());
    const db = () => f.t.services.database.db;
    /** An access request of `acme` waiting for the systems `keys`. @returns its id, its tasks and a reporter token. */
    async function waitingRequest(keys: string[], env: Record<string, string> = {}) {
      f = await openFixture(dialect.create, { env });
      const admin = await f.t.bearer(['admin'], ['acme']);
      const reporter = await f.t.bearer(['tasks:write'], ['acme']);
      for (const key of keys) await addSystem(f.t, admin, { key, categories: ['user'] });
      const filed = await fileRequest(f, { request_type: 'access', scope: ['user'] });
      await processAll(f);
      assert.equal((await requestRow(f, filed.id)).status, 'processing');
      return { id: filed.id, tasks: await tasksOf(db(), filed.id), reporter };
    }
    const storedPackage = async (id: string) =>
      (await db().selectFrom('request_results').select('package').where('request_id', '=', id).executeTakeFirstOrThrow()).package;
    /** Per task: the stored size and the bytes of the stored text, as the database counts them. */
    const sizes = async (id: string) =>
      (
        await db()
          .selectFrom('data_tasks')
          .select(['system_key', 'result_bytes', sql<number | string | null>`octet_length(result)`.as('actual')])
          .where('request_id', '=', id)
          .orderBy('system_key')
          .execute()
      ).map((r) => [
        r.system_key,
        r.result_bytes === null ? null : Number(r.result_bytes),
        r.actual === null ? null : Number(r.actual),
      ]);

    it('is the own package with systems.<key>, system_answers.<key> and system_processing.<key> added, byte for byte; each task keeps its result without data, and its size', async () => {
      const { id, tasks, reporter } = await waitingRequest(['billing', 'crm', 'zendesk']);
      const own = await storedPackage(id);
      assert.ok(own !== null);
      const [billing, crm, zendesk] = tasks;
      const crmData = dataOf('crm', 200_000);
      const zendeskData = dataOf('zendesk', 150_000);
      assert.equal((await postResult(f.t, reporter, zendesk!.id, { outcome: 'completed', data: zendeskData })).statusCode, 200);
      assert.equal(
        (await postResult(f.t, reporter, crm!.id, { outcome: 'completed', data: crmData, records: { 'user.contact': 2000 } }))
          .statusCode,
        200,
      );
      const last = await postResult(f.t, reporter, billing!.id, { outcome: 'not_applicable', note: 'no account' });
      assert.equal(last.statusCode, 200, last.body);
      assert.equal((await requestRow(f, id)).status, 'completed');

      const expected = JSON.stringify({
        ...JSON.parse(own),
        systems: { crm: crmData, zendesk: zendeskData },
        system_answers: { crm: { records: { 'user.contact': 2000 } }, zendesk: {} },
        // Neither system declared its processing (PRODUCT §2.17): each field null.
        system_processing: {
          crm: { purposes: null, recipients: null, retention: null, source: null },
          zendesk: { purposes: null, recipients: null, retention: null, source: null },
        },
      });
      assert.equal(await storedPackage(id), expected);
      const results = (await tasksOf(db(), id)).map((t) => JSON.parse(t.result!) as Record<string, unknown>);
      assert.deepEqual(results, [
        { outcome: 'not_applicable', note: 'no account' },
        { outcome: 'completed', records: { 'user.contact': 2000 }, data_categories: ['user.contact'] },
        { outcome: 'completed', data_categories: ['user.contact'] },
      ]);
      for (const [key, stored, actual] of await sizes(id))
        assert.equal(stored, actual, `${key}: the stored size is the result's`);
    });

    it('reads the results in slices with a pause between them, and stopped half-way stores nothing of it', async () => {
      const { id, tasks, reporter } = await waitingRequest(['crm', 'erp', 'zendesk']);
      for (const task of tasks.slice(1))
        assert.equal(
          (await postResult(f.t, reporter, task.id, { outcome: 'completed', data: dataOf(task.system_key, RESULT_SLICE_CHARS) }))
            .statusCode,
          200,
        );
      // crm ends without a result; the request is then ended by hand, stopped at the first pause (erp read, zendesk not).
      await db().updateTable('data_tasks').set({ status: 'not_applicable' }).where('id', '=', tasks[0]!.id).execute();
      const own = await storedPackage(id);
      const before = await tasksOf(db(), id);
      const request = await requestRow(f, id);
      let pauses = 0;
      const stop = new Error('stopped');
      await assert.rejects(
        runUnitOfWork(db(), async (unit) => {
          const next = await afterOwnStep(unit.tx, request, { pkg: own, report: null }, new Date().toISOString(), async () => {
            pauses += 1;
            if (pauses === 1) throw stop;
          });
          assert.fail(`not stopped (${next.status})`);
        }),
        (error) => error === stop,
      );
      assert.equal(await storedPackage(id), own, 'the package is as it was');
      assert.deepEqual(await tasksOf(db(), id), before, 'every task still holds its data');

      let counted = 0;
      const next = await runUnitOfWork(db(), (unit) =>
        afterOwnStep(unit.tx, request, { pkg: own, report: null }, new Date().toISOString(), async () => {
          counted += 1;
        }),
      );
      assert.equal(next.status, 'completed');
      assert.equal(counted, 2, 'one pause after each slice of results');
      assert.deepEqual(Object.keys((JSON.parse(next.pkg!) as { systems: object }).systems), ['erp', 'zendesk']);
    });

    it('MAX_REQUEST_DATA_BYTES counts the stored results to the byte: at the cap a result is taken, one byte over it is a 413', async () => {
      const { id, tasks, reporter } = await waitingRequest(['crm', 'erp', 'zendesk'], {
        MAX_TASK_DATA_BYTES: '65536',
        MAX_REQUEST_DATA_BYTES: '20000',
      });
      const [crm, erp] = tasks;
      assert.equal(
        (await postResult(f.t, reporter, crm!.id, { outcome: 'completed', data: { 'user.name': 'a'.repeat(9000) } })).statusCode,
        200,
      );
      const stored = (await sizes(id))[0]?.[1];
      assert.ok(typeof stored === 'number' && stored > 9000);
      // `data` of exactly `bytes` bytes of JSON: {"user.name":"…"} is 16 bytes around the string.
      const data = (bytes: number) => ({ 'user.name': 'b'.repeat(bytes - 16) });
      const over = await postResult(f.t, reporter, erp!.id, { outcome: 'completed', data: data(20_000 - stored + 1) });
      assert.equal(over.statusCode, 413, over.body);
      assert.match(over.json().detail, /MAX_REQUEST_DATA_BYTES \(20000 bytes\)/);
      const at = await postResult(f.t, reporter, erp!.id, { outcome: 'completed', data: data(20_000 - stored) });
      assert.equal(at.statusCode, 200, at.body);
      for (const [key, size, actual] of await sizes(id)) assert.equal(size, actual, `${key}: the stored size is the result's`);
    });
  });
}
