/**
 * What task results cannot do to the server (issue 23 items 2, 3 and 6): a result's `data` over
 * `MAX_TASK_DATA_BYTES`, or a request's results together over `MAX_REQUEST_DATA_BYTES`, is a 413
 * naming the limit and stores nothing; a request fanned out to many systems keeps a short
 * `status_reason`; data reported for a request whose package a deletion already erased is
 * written nowhere: not in any table, and (SQLite) not in the database file or its WAL. On SQLite
 * and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import { dialects } from '../../helpers/databases.js';
import { addSystem, postResult, tasksOf } from '../../helpers/data-systems.js';
import { findInFiles, findInTables } from '../../helpers/storage-scan.js';
import { type Fixture, processAll, fileRequest, openFixture, requestRow } from '../../helpers/worker.js';

for (const dialect of dialects()) {
  describe(`task result limits and late data (${dialect.name})`, () => {
    let f: Fixture;
    afterEach(() => f?.close());
    const db = () => f.t.services.database.db;
    /** A fixture with two systems of `acme` answering access requests, an admin and a reporter token. */
    async function world(env: Record<string, string> = {}) {
      f = await openFixture(dialect.create, { env });
      const admin = await f.t.bearer(['admin'], ['acme']);
      const reporter = await f.t.bearer(['tasks:write'], ['acme']);
      for (const key of ['crm', 'zendesk'])
        await addSystem(f.t, admin, { key, categories: ['user'], request_types: ['access', 'deletion'] });
      return { admin, reporter };
    }
    const blob = (bytes: number) => ({ 'user.name': 'x'.repeat(bytes) });

    it('a result whose data is over MAX_TASK_DATA_BYTES is a 413 naming the limit; the task stays pending, nothing stored', async () => {
      const { reporter } = await world({ MAX_TASK_DATA_BYTES: '4096' });
      const filed = await fileRequest(f, { request_type: 'access', scope: ['user'] });
      await processAll(f);
      const [crm] = await tasksOf(db(), filed.id);
      const res = await postResult(f.t, reporter, crm!.id, { outcome: 'completed', data: blob(5000) });
      assert.equal(res.statusCode, 413, res.body);
      assert.match(res.json().detail, /MAX_TASK_DATA_BYTES \(4096 bytes\)/);
      const [after] = await tasksOf(db(), filed.id);
      assert.deepEqual([after!.status, after!.result], ['pending', null]);
      const ok = await postResult(f.t, reporter, crm!.id, { outcome: 'completed', data: blob(3000) });
      assert.equal(ok.statusCode, 200, 'under the limit it is taken');
    });

    it('results of one request together over MAX_REQUEST_DATA_BYTES: the one that crosses it is a 413, the earlier stays', async () => {
      const { reporter } = await world({ MAX_TASK_DATA_BYTES: '8192', MAX_REQUEST_DATA_BYTES: '10000' });
      const filed = await fileRequest(f, { request_type: 'access', scope: ['user'] });
      await processAll(f);
      const [crm, zendesk] = await tasksOf(db(), filed.id);
      assert.equal((await postResult(f.t, reporter, crm!.id, { outcome: 'completed', data: blob(6000) })).statusCode, 200);
      const res = await postResult(f.t, reporter, zendesk!.id, { outcome: 'completed', data: blob(6000) });
      assert.equal(res.statusCode, 413, res.body);
      assert.match(res.json().detail, /MAX_REQUEST_DATA_BYTES \(10000 bytes\)/);
      const tasks = await tasksOf(db(), filed.id);
      assert.deepEqual(
        tasks.map((t) => t.status),
        ['completed', 'pending'],
      );
      assert.equal((await requestRow(f, filed.id)).status, 'processing');
    });

    it('a request fanned out to many systems names five in its status_reason, then how many more', async () => {
      const { admin, reporter } = await world();
      for (const key of ['ads', 'billing', 'ci', 'docs', 'events', 'forms'])
        await addSystem(f.t, admin, { key, categories: ['user'] });
      const filed = await fileRequest(f, { request_type: 'access', scope: ['user'] });
      await processAll(f);
      const row = await requestRow(f, filed.id);
      assert.equal(row.status_reason, 'waiting for data tasks: ads, billing, ci, crm, docs and 3 more');
      const tasks = await tasksOf(db(), filed.id);
      for (const task of tasks.slice(0, 7)) await postResult(f.t, reporter, task.id, { outcome: 'failed', note: 'down' });
      assert.equal((await requestRow(f, filed.id)).status_reason, 'waiting for data tasks: zendesk');
      await postResult(f.t, reporter, tasks[7]!.id, { outcome: 'failed', note: 'down' });
      const failed = await requestRow(f, filed.id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.status_reason, 'data task failed in: ads, billing, ci, crm, docs and 3 more');
    });

    it('data reported after a deletion erased the package it was for is written nowhere (tables, SQLite file and WAL)', async () => {
      const { reporter } = await world();
      const access = await fileRequest(f, { request_type: 'access', scope: ['user'] });
      await processAll(f);
      assert.equal((await requestRow(f, access.id)).status, 'processing', 'waiting for its systems');
      const deletion = await fileRequest(f, { request_type: 'deletion', scope: ['user'] });
      await processAll(f);
      const deletionTasks = await tasksOf(db(), deletion.id);
      for (const task of deletionTasks) await postResult(f.t, reporter, task.id, { outcome: 'completed', erased: { user: 1 } });
      assert.equal((await requestRow(f, deletion.id)).status, 'completed');
      const stored = await db()
        .selectFrom('request_results')
        .select('package')
        .where('request_id', '=', access.id)
        .executeTakeFirst();
      assert.equal(stored?.package, null, 'the deletion erased the waiting access package');

      const marker = `late-marker-${randomBytes(8).toString('hex')}`;
      const [crm, zendesk] = await tasksOf(db(), access.id);
      const res = await postResult(f.t, reporter, crm!.id, { outcome: 'completed', data: { 'user.name': marker } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().result.data_categories, ['user.name'], 'what it held is named, not kept');
      await postResult(f.t, reporter, zendesk!.id, { outcome: 'not_applicable' });
      assert.equal((await requestRow(f, access.id)).status, 'completed');
      assert.deepEqual(await findInTables(f.t, [marker]), []);
      if (dialect.name === 'sqlite') {
        const path = f.database.url.replace(/^sqlite:/, '');
        assert.deepEqual(findInFiles(path, [marker]), []);
      }
    });
  });
}
