/**
 * The validation contract (PRODUCT.md §2.1): every case in test/golden/validation-cases.json was
 * produced by Pydantic v2 emulating FastAPI (scripts/pydantic-golden/generate.py); the service
 * must answer each with the identical 422 body, or accept it when FastAPI would, on both databases
 * (a NUL character, which PostgreSQL text cannot hold, is refused before either sees it).
 * Cases of route `task_result_package` need a real access task (their rule depends on the task's
 * type) and run in test/integration/data-systems/system-answers.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

interface GoldenCase {
  name: string;
  route: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: string | null;
  expected: { status: 422; body: unknown } | { status: 'valid' };
}

const cases = (
  JSON.parse(readFileSync(new URL('../../golden/validation-cases.json', import.meta.url), 'utf8')) as GoldenCase[]
).filter((c) => c.route !== 'task_result_package');

function queryString(query: GoldenCase['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const v of [value].flat()) params.append(key, v);
  const text = params.toString();
  return text ? `?${text}` : '';
}

for (const dialect of dialects()) {
  describe(`validation contract: golden cases from Pydantic (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let authorization: string;
    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      authorization = await t.bearer(['admin'], ['*']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('has at least 30 cases', () => assert.ok(cases.length >= 30));

    for (const c of cases) {
      it(c.name, async () => {
        // Each case starts from an empty table, so a valid create is a fresh 202, never a 409.
        await t.services.database.db.deleteFrom('privacy_requests').execute();
        await t.services.database.db.deleteFrom('idempotency_records').execute();
        const response = await t.app.inject({
          method: c.method,
          url: c.path + queryString(c.query),
          headers: { ...c.headers, authorization },
          ...(c.body === null ? {} : { payload: c.body }),
        });
        if (c.expected.status === 'valid') {
          // Valid input passes validation. What follows may refuse a cursor this service never
          // issued, after validation: a 422 naming only `cursor`; any other 422 is a validation bug.
          assert.ok(response.statusCode < 500, `${response.statusCode} ${response.body}`);
          if (response.statusCode === 422) {
            assert.ok(c.query.cursor !== undefined, response.body);
            assert.deepEqual(
              response.json().detail.map((d: { type: string; loc: unknown[] }) => [d.type, d.loc]),
              [['value_error', ['query', 'cursor']]],
            );
          }
        } else {
          assert.equal(response.statusCode, 422, response.body);
          assert.deepEqual(response.json(), c.expected.body);
        }
      });
    }
  });
}
