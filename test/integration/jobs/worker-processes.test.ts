/**
 * Real `privacyctl worker` processes on one PostgreSQL database while this process keeps filing
 * requests: every request is completed exactly once and the audit chain stays intact (issue #4:
 * "Exactly once per request, also with several workers"). PostgreSQL only: SQLite takes one
 * serve or worker process per file (issue 11 item 1, docs/decisions.md); that a second one is
 * refused there is test/integration/db/sqlite-process-lock.test.ts.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { readChain } from '../../../src/modules/audit/audit.repository.js';
import { verifyChain } from '../../../src/modules/audit/audit-chain.fns.js';
import { type TestApp, startTestApp } from '../../helpers/app.js';
import { type TestDatabase, dialects } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { createBody } from '../../helpers/requests.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('worker processes', () => {
  let cli: BuiltCli;
  before(() => {
    cli = buildPrivacyctl();
  });
  after(() => cli.remove());

  for (const dialect of dialects()) {
    const skip = dialect.name === 'sqlite' ? 'SQLite takes one worker process per file (sqlite-process-lock.test.ts)' : false;
    describe(dialect.name, { skip }, () => {
      let database: TestDatabase;
      let t: TestApp;
      const workers: ChildProcess[] = [];
      before(async () => {
        database = await dialect.create();
        t = await startTestApp(database, { env: { WORKER_IN_SERVER: 'false' } });
        // Its subjects are unknown on purpose (the test is about worker processes): a named
        // controller and no review of unmatched identities (PRODUCT §2.13) let every request complete.
        await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
        await t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
      });
      after(async () => {
        for (const w of workers) w.kill('SIGKILL');
        await t.close();
        await database.drop();
      });

      const file = async (auth: string, i: number) => {
        const body = createBody({
          request_type: ['access', 'export', 'deletion'][i % 3],
          client_request_id: `multi-process-${i}`,
          subject_id: `subject-${i}`,
        });
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: auth, 'idempotency-key': `multi-key-${i}` },
          payload: body,
        });
        assert.equal(res.statusCode, 202, res.body);
      };

      it('two workers complete 40 requests exactly once while the API keeps writing', { timeout: 120_000 }, async () => {
        const auth = await t.bearer(['privacy:write'], ['acme']);
        for (let i = 0; i < 20; i++) await file(auth, i);
        const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent', WORKER_POLL_MS: '20' };
        for (let i = 0; i < 2; i++) workers.push(spawn(process.execPath, [cli.bin, 'worker'], { env, stdio: 'ignore' }));
        for (let i = 20; i < 40; i++) await file(auth, i);
        const db = t.services.database.db;
        const deadline = Date.now() + 90_000;
        let done = 0;
        while (Date.now() < deadline) {
          done = (await db.selectFrom('privacy_requests').select('id').where('status', '=', 'completed').execute()).length;
          if (done === 40) break;
          await sleep(200);
        }
        assert.equal(done, 40, 'not every request completed');
        for (const w of workers) w.kill('SIGTERM');
        const completions = await db
          .selectFrom('audit_events')
          .select('target_id')
          .where('action', '=', 'privacy_request.completed')
          .execute();
        assert.equal(completions.length, 40, 'a request was completed more than once');
        assert.equal(new Set(completions.map((c) => c.target_id)).size, 40);
        const { entries, head } = await readChain(db);
        assert.equal(verifyChain(entries, head), null);
      });
    });
  }
});
