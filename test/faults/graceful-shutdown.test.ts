/**
 * SIGTERM under load (issue #5 item 4), on each dialect: the real service with its in-server
 * worker takes concurrent creates; SIGTERM mid-load. Requests in flight get their full answer,
 * later ones a 503 in the API's shape (or a refused connection once the port is closed), the
 * process exits 0, and the database holds every request complete (idempotency record, audit
 * entry), no request left claimed by the stopped worker, and an intact audit chain.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { type TestDatabase, dialects } from '../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl } from '../helpers/privacyctl.js';
import { type Answer, answerUnknownSubjects, type ServiceProcess, startService } from '../helpers/service-process.js';
import { startLoad, until } from './fault-load.js';
import { checkCreates } from './request-records.js';

/** Transport errors acceptable for a request sent after SIGTERM: the server closed or refused the connection. */
const CLOSED = /ECONNREFUSED|ECONNRESET|other side closed|socket|fetch failed/i;

describe('SIGTERM under load', () => {
  let cli: BuiltCli;
  before(() => {
    cli = buildPrivacyctl();
  });
  after(() => cli?.remove());

  for (const dialect of dialects()) {
    describe(dialect.name, () => {
      let database: TestDatabase;
      let service: ServiceProcess | undefined;
      before(async () => {
        database = await dialect.create();
      });
      after(async () => {
        service?.kill();
        await service?.exited;
        await database.drop();
      });

      it('finishes requests in flight, exits 0, and leaves nothing half-written', { timeout: 180_000 }, async (t) => {
        service = await startService(cli.bin, { DATABASE_URL: database.url, WORKER_POLL_MS: '20' });
        const token = cli.run({ DATABASE_URL: database.url }, [
          'token',
          'create',
          '--workspace',
          'acme',
          '--scope',
          'privacy:write',
        ]);
        assert.equal(token.status, 0, token.stderr);
        const admin = cli.run({ DATABASE_URL: database.url }, ['token', 'create', '--workspace', 'acme', '--scope', 'admin']);
        assert.equal(admin.status, 0, admin.stderr);
        await answerUnknownSubjects(service.url, `Bearer ${admin.stdout.trim()}`);
        let phase = 'up';
        const load = startLoad({
          url: service.url,
          auth: `Bearer ${token.stdout.trim()}`,
          prefix: `sigterm-${dialect.name}`,
          concurrency: 12,
          reads: false,
          phase: () => phase,
        });
        const accepted = () => load.outcomes.filter((o) => o.answer?.status === 202).length;
        try {
          await until(() => accepted() >= 40, 'creates accepted before SIGTERM');
          phase = 'terminating';
          service.child.kill('SIGTERM');
          const code = await Promise.race([service.exited, new Promise((r) => setTimeout(() => r('hung'), 60_000).unref())]);
          assert.equal(code, 0, `exit ${String(code)}\n${service.output().stderr}`);
          phase = 'exited';
        } finally {
          await load.stop();
        }

        const inFlight = load.outcomes.filter((o) => o.startPhase === 'up' && o.endPhase !== 'up');
        assert.ok(
          inFlight.some((o) => o.answer?.status === 202),
          'no request in flight at SIGTERM was answered 202',
        );
        // A request sent just before the signal may reach the server after it began closing: then
        // it is refused (503, or a closed keep-alive socket), never half-answered or hung.
        for (const o of load.outcomes) {
          if (o.answer) {
            const answer: Answer = o.answer;
            if (answer.status === 202) continue;
            assert.equal(answer.status, 503, `${o.startPhase}: ${answer.status} ${JSON.stringify(answer.body)}`);
            assert.ok(answer.retryAfter, 'closing 503 without Retry-After');
            assert.equal(typeof (answer.body as { detail?: unknown }).detail, 'string');
          } else {
            assert.match(o.error ?? '', CLOSED);
          }
        }

        const db = createDatabase(database.url);
        try {
          const check = await checkCreates(db.db, load.outcomes);
          const refused = load.outcomes.filter((o) => o.answer?.status === 503).length;
          const closed = load.outcomes.filter((o) => o.error).length;
          t.diagnostic(
            `${check.complete.length} stored, ${check.absent.length} absent, ${inFlight.length} in flight at SIGTERM, ` +
              `${refused} answered 503 while closing, ${closed} connections closed`,
          );
          assert.equal(check.orphanClaims.length, 0, 'a graceful stop left an in-flight idempotency claim');
          const rows = await db.db.selectFrom('privacy_requests').select(['id', 'status', 'lease_owner']).execute();
          for (const row of rows) {
            assert.ok(['queued', 'completed'].includes(row.status), `${row.id} left ${row.status}`);
            assert.equal(row.lease_owner, null, `${row.id} still leased by the stopped worker`);
          }
          const completed = await db.db
            .selectFrom('audit_events')
            .select('target_id')
            .where('action', '=', 'privacy_request.completed')
            .execute();
          assert.equal(completed.length, rows.filter((r) => r.status === 'completed').length);
        } finally {
          await db.close();
        }
        const verify = cli.run({ DATABASE_URL: database.url }, ['audit', 'verify']);
        assert.equal(verify.status, 0, verify.stderr);
      });
    });
  }
});
