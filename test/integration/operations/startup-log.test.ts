/**
 * A newcomer's first minute (issue 23, item 10): `GET /` leads to the console (302), the start
 * announces the console URL, the database (kind and place, never a credential) and whether the
 * worker runs, and `/healthz` polls are logged at debug, not at info. On both databases: the
 * announced database is the one the app was opened on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseLabel } from '../../../src/db/database-label.js';
import { logStartup } from '../../../src/startup-log.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { captureLogs } from '../../helpers/log-capture.js';

const PASSWORD = 'Sup3r-s3cret-pw';

/** The test database's URL with a user name and password in it (SQLite: as it is). */
function withCredentials(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  const parsed = new URL(url);
  parsed.username = 'svc_user';
  parsed.password = PASSWORD;
  return parsed.toString();
}

describe('databaseLabel', () => {
  it('names kind and place, never user, password or other parameters', () => {
    assert.equal(databaseLabel('sqlite:./data/privacy.db'), 'sqlite ./data/privacy.db');
    assert.equal(
      databaseLabel(`postgres://app:${PASSWORD}@db.internal:6543/prod?sslmode=require&options=-c%20search_path%3Dtenant_a`),
      'postgres db.internal:6543/prod (schema tenant_a)',
    );
    assert.equal(databaseLabel(`postgresql://app:${PASSWORD}@127.0.0.1/test`), 'postgres 127.0.0.1:5432/test');
    assert.equal(databaseLabel('postgres:///app?host=/run/postgresql'), 'postgres /run/postgresql:5432/app');
    assert.equal(databaseLabel(`postgres://app:${PASSWORD}@[::1`), 'postgres (unparsable URL)');
  });
});

for (const dialect of dialects()) {
  describe(`the service's front door (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('GET / redirects (302) to the console', async () => {
      const res = await t.app.inject('/');
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, '/console/');
    });

    it('the start names the console URL, the database without credentials, and the worker', async () => {
      const capture = captureLogs(t.app, 'info');
      try {
        const listeningAt = await t.app.listen({ host: '127.0.0.1', port: 0 });
        const url = withCredentials(database.url);
        logStartup(t.app.log, { listeningAt, databaseUrl: url, workerInServer: true });
        logStartup(t.app.log, { listeningAt, databaseUrl: url, workerInServer: false });
        const [running, off] = capture.lines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => String(line.msg).startsWith('service ready'));
        const place =
          dialect.name === 'sqlite'
            ? `sqlite ${database.url.slice('sqlite:'.length)}`
            : `postgres 127.0.0.1:5432/${new URL(database.url).pathname.slice(1)} (schema ${/search_path=(\w+)/.exec(decodeURIComponent(database.url))?.[1]})`;
        assert.equal(
          running?.msg,
          `service ready: console ${listeningAt}/console/, database ${place}, worker running in this process`,
        );
        assert.deepEqual(
          { level: running?.level, console: running?.console, database: running?.database, worker: running?.worker },
          { level: 30, console: `${listeningAt}/console/`, database: place, worker: true },
        );
        assert.match(String(off?.msg), /worker not running here \(WORKER_IN_SERVER=false: start `privacyctl worker`\)$/);
        assert.equal(off?.worker, false);
        // The console URL it names answers.
        const page = await fetch(String(running?.console), { redirect: 'manual' });
        assert.ok([200, 503].includes(page.status), `console answered ${page.status}`);
        for (const secret of [PASSWORD, 'svc_user', encodeURIComponent(PASSWORD)])
          assert.ok(!capture.text().includes(secret), `the start log shows ${secret}`);
      } finally {
        capture.restore();
      }
    });

    it('/healthz is logged at debug, not at info; other routes stay at info', async () => {
      const atInfo = captureLogs(t.app, 'info');
      try {
        assert.equal((await t.app.inject('/healthz')).statusCode, 200);
        assert.deepEqual(atInfo.lines, [], 'a /healthz line at info');
        assert.equal((await t.app.inject('/readyz')).statusCode, 200);
        assert.match(atInfo.text(), /"url":"\/readyz"/);
        assert.match(atInfo.text(), /"msg":"request completed"/);
      } finally {
        atInfo.restore();
      }
      const atDebug = captureLogs(t.app, 'debug');
      try {
        await t.app.inject('/healthz');
        const lines = atDebug.lines.map((line) => JSON.parse(line) as { level: number; msg: string });
        assert.deepEqual(
          lines.map((l) => [l.level, l.msg]),
          [
            [20, 'incoming request'],
            [20, 'request completed'],
          ],
        );
        assert.match(atDebug.text(), /"url":"\/healthz"/);
      } finally {
        atDebug.restore();
      }
    });
  });
}
