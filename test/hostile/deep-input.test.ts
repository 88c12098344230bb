/**
 * Deep nesting, huge arrays and strings, invalid UTF-8 (docs/protection.md, "Hostile bodies"):
 * never a crash or a 5xx; 413 over BODY_LIMIT_BYTES; within it, FastAPI's answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';
import { createBody } from '../helpers/requests.js';
import { assertContract } from './contract.js';
import { tableCounts } from './table-counts.js';

const LIMIT = 1024 * 1024;
/** FastAPI's answer when `request.json()` fails other than with a JSONDecodeError (fastapi/routing.py). */
const PARSE_ERROR = { detail: 'There was an error parsing the body' };

for (const dialect of dialects()) {
  describe(`deep and huge input (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    let n = 0;
    const create = (payload: string | Buffer) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: auth, 'idempotency-key': `deep-input-${++n}`, 'content-type': 'application/json' },
        payload,
      });
    const putLayer = (payload: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/policies/workspaces/acme',
        headers: { authorization: auth, 'content-type': 'application/json' },
        payload,
      });
    /** Sends, checks the contract, and that nothing was stored; returns the response. */
    async function refused(send: () => ReturnType<typeof create>, what: string) {
      const before = await tableCounts(t.services);
      const res = await send();
      const status = assertContract(res, what);
      assert.ok(status >= 400, `${what}: ${status}`);
      assert.deepEqual(await tableCounts(t.services), before, what);
      return res;
    }

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      auth = await t.bearer(['privacy:write', 'policy:write']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('answers 400 "There was an error parsing the body" past CPython\'s nesting limit, as FastAPI (RecursionError)', async () => {
      for (const [what, payload] of [
        ['100 000 [', '['.repeat(100_000)],
        ['100 000 nested arrays, closed', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
        ['50 000 nested objects', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`],
        ['1001 nested arrays', `${'['.repeat(1001)}${']'.repeat(1001)}`],
      ] as const) {
        for (const send of [() => create(payload), () => putLayer(payload)]) {
          const res = await refused(send, what);
          assert.equal(res.statusCode, 400, `${what}: ${res.body.slice(0, 200)}`);
          assert.deepEqual(res.json(), PARSE_ERROR);
        }
      }
      // Brackets inside strings do not nest; 900 levels are parsed and validated.
      const inString = await refused(
        () => create(JSON.stringify(createBody({ subject_id: '['.repeat(5000) }))),
        'brackets in a string',
      );
      assert.equal(inString.json().detail[0].type, 'string_too_long');
      const deepest = await refused(() => create(`${'['.repeat(900)}${']'.repeat(900)}`), '900 levels');
      assert.equal(deepest.statusCode, 422);
      assert.equal(deepest.json().detail[0].type, 'model_attributes_type');
      assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
    });

    it('answers 422 with Pydantic items to a huge array and a huge string within the body limit', async () => {
      const scope = Array.from({ length: 100_000 }, () => 'user');
      const longList = await refused(() => create(JSON.stringify(createBody({ scope }))), 'huge scope');
      assert.equal(longList.statusCode, 422);
      const [item] = longList.json().detail;
      assert.equal(item.type, 'too_long');
      assert.deepEqual(item.loc, ['body', 'scope']);
      assert.deepEqual(item.ctx, { field_type: 'List', max_length: 20, actual_length: 100_000 });

      const longString = await refused(
        () => create(JSON.stringify(createBody({ subject_id: 'x'.repeat(900_000) }))),
        'huge string',
      );
      assert.equal(longString.statusCode, 422);
      assert.equal(longString.json().detail[0].type, 'string_too_long');
      assert.deepEqual(longString.json().detail[0].ctx, { max_length: 300 });

      const paths = Array.from({ length: 50_000 }, (_, i) => `p${i}/**`);
      const layer = await refused(() => putLayer(JSON.stringify({ excluded_paths: paths })), 'huge excluded_paths');
      assert.equal(layer.statusCode, 422);
      assert.equal(layer.json().detail[0].type, 'too_long');
    });

    it('answers 413 to bodies over BODY_LIMIT_BYTES (1 MiB), whatever they hold', async () => {
      for (const [what, payload] of [
        ['a string one byte over', JSON.stringify(createBody({ subject_id: 'x'.repeat(LIMIT) }))],
        ['brackets one byte over', '['.repeat(LIMIT + 1)],
        ['exactly one byte over', ' '.repeat(LIMIT + 1)],
      ] as const) {
        const res = await refused(() => create(payload), what);
        assert.equal(res.statusCode, 413, what);
        assert.deepEqual(res.json(), { detail: 'Request body is too large' });
      }
    });

    it('answers 400 "There was an error parsing the body" to invalid UTF-8, as FastAPI (UnicodeDecodeError in json.loads)', async () => {
      const valid = Buffer.from(JSON.stringify(createBody({ subject_id: 'PLACEHOLDER' })));
      const at = valid.indexOf('PLACEHOLDER');
      for (const [what, bad] of [
        ['a lone 0xFF', Buffer.from([0xff])],
        ['a truncated sequence', Buffer.from([0xe2, 0x82])],
        ['an overlong slash', Buffer.from([0xc0, 0xaf])],
        ['a lone continuation byte', Buffer.from([0x80])],
      ] as const) {
        const payload = Buffer.concat([valid.subarray(0, at), bad, valid.subarray(at + 'PLACEHOLDER'.length)]);
        const res = await refused(() => create(payload), what);
        assert.equal(res.statusCode, 400, what);
        assert.deepEqual(res.json(), PARSE_ERROR);
      }
    });
  });
}
