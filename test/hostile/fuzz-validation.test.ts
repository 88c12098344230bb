/**
 * fast-check fuzzing of bodies, headers, query strings and path ids against the validation
 * contract (PRODUCT.md §2.1): never a 5xx, every 422 well-formed, every other error
 * `{"detail": string}`, and a refused request stores nothing. Runs on both databases; strings
 * include control characters and NUL (which PostgreSQL text cannot hold).
 */
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';
import { createBody } from '../helpers/requests.js';
import { assertContract } from './contract.js';
import { tableCounts } from './table-counts.js';

const RUNS = { numRuns: 100 };
/** Header-safe text: tab, visible ASCII, space and obs-text (RFC 9110 §5.5), any length. */
const headerText = fc
  .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09)), {
    maxLength: 260,
  })
  .map((codes) => String.fromCharCode(...codes));
/** Any bytes, percent-encoded (invalid UTF-8 included). */
const encodedBytes = fc
  .uint8Array({ maxLength: 40 })
  .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
/** Text with any ASCII control character, NUL included, and sometimes a NUL for sure. */
const controlText = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([a, b]) => `${a}\u0000${b}`),
);
/** Any JSON value, or a string with control characters / NUL. */
const fieldValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), controlText);
const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  controlText.map(encodeURIComponent),
  encodedBytes,
  fc.constantFrom('', 'true', 'false', '0', '-1', '1e3', '%', '%zz'),
);
const CREATE_FIELDS = [
  'request_type',
  'scope',
  'subject_id',
  'subject_provider',
  'workspace_id',
  'client_request_id',
  'intake_ref',
];
const POLICY_FIELDS = [
  'processing_allowed',
  'retention_days',
  'author_identity',
  'excluded_paths',
  'regulations',
  'require_approval',
  'auto_erase_on_deprovision',
  'confirm_no_data',
  'holidays',
  'repeat_window_days',
];
const OPT_OUT_FIELDS = [
  'workspace_id',
  'subject_provider',
  'subject_id',
  'kind',
  'choice',
  'source',
  'client_request_id',
  'received_at',
];
/** A valid opt-out (PRODUCT §2.18); the generator may repeat it, whose client_request_id is then taken (409). */
const VALID_OPT_OUT = {
  workspace_id: 'acme',
  subject_provider: 'email',
  subject_id: 'zq-fuzz@example.test',
  kind: 'sale_sharing',
  choice: 'opt_out',
  source: 'form',
  client_request_id: 'crm-fuzz-opt-out',
};

/** A body close to `valid`: some fields replaced by any JSON value, some removed. */
function nearValid(valid: Record<string, unknown>, fields: string[]) {
  return fc
    .record({ replace: fc.dictionary(fc.constantFrom(...fields), fieldValue), drop: fc.subarray(fields) })
    .map(({ replace, drop }) => {
      const body: Record<string, unknown> = { ...valid, ...replace };
      for (const field of drop) delete body[field];
      return JSON.stringify(body);
    });
}

const anyBody = (valid: Record<string, unknown>, fields: string[]) =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'),
    nearValid(valid, fields),
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    fc.string({ maxLength: 200 }),
  );

for (const dialect of dialects()) {
  describe(`fuzzing the validation contract (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let auth: string;
    let n = 0;
    /** Statuses seen per test: proves each property reached the validation (not only 401s). */
    let seen = new Set<number>();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      auth = await t.bearer(['privacy:write', 'privacy:read', 'policy:read', 'policy:write', 'tasks:write']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });
    beforeEach(() => {
      seen = new Set();
    });
    afterEach(() => {
      assert.ok(seen.has(422), `a 422 was among the answers: ${[...seen].join(', ')}`);
    });

    /** Sends one request; on any error status, asserts that no table changed. */
    async function sendChecked(what: string, options: InjectOptions) {
      const before = await tableCounts(t.services);
      const res = await t.app.inject(options);
      const status = assertContract(res, what);
      seen.add(status);
      // A valid body whose client_request_id is taken (the generator can repeat the valid body)
      // is a 409 with the existing Location, and that answer is stored under its new key, to
      // be replayed: one idempotency record, nothing else.
      const expected =
        status === 409 && res.headers.location !== undefined
          ? { ...before, idempotency_records: (before.idempotency_records ?? 0) + 1 }
          : before;
      if (status >= 400) assert.deepEqual(await tableCounts(t.services), expected, `${what}: ${status} stored something`);
      return status;
    }

    it('POST /privacy/requests: any JSON value, near-valid bodies, any bytes or text, under any content type', async () => {
      const contentType = fc.constantFrom(
        'application/json',
        'application/merge-patch+json',
        'text/plain',
        'application/x-www-form-urlencoded',
        undefined,
      );
      await fc.assert(
        fc.asyncProperty(anyBody(createBody(), CREATE_FIELDS), contentType, async (payload, type) => {
          const headers: Record<string, string> = { authorization: auth, 'idempotency-key': `fuzz-body-${++n}-key` };
          if (type) headers['content-type'] = type;
          await sendChecked('create', { method: 'POST', url: '/api/v1/privacy/requests', headers, payload });
        }),
        RUNS,
      );
    });

    it('POST /privacy/opt-outs: any JSON value, near-valid bodies (an opt_in from any source), any bytes or text', async () => {
      const body = fc.oneof(
        anyBody(VALID_OPT_OUT, OPT_OUT_FIELDS),
        fc
          .constantFrom('form', 'gpc', 'agent', 'api', 'center')
          .map((source) => JSON.stringify({ ...VALID_OPT_OUT, choice: 'opt_in', source })),
      );
      await fc.assert(
        fc.asyncProperty(body, async (payload) => {
          const headers = {
            authorization: auth,
            'idempotency-key': `fuzz-opt-out-${++n}-key`,
            'content-type': 'application/json',
          };
          await sendChecked('opt-out', { method: 'POST', url: '/api/v1/privacy/opt-outs', headers, payload });
        }),
        RUNS,
      );
    });

    it('POST /privacy/requests: any Idempotency-Key, Content-Type and extra headers', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.option(headerText, { nil: undefined }),
          fc.option(headerText, { nil: undefined }),
          fc.dictionary(fc.constantFrom('accept', 'x-request-id', 'content-encoding', 'if-none-match', 'prefer'), headerText),
          nearValid(createBody(), CREATE_FIELDS),
          async (key, type, extra, payload) => {
            const headers: Record<string, string> = { ...extra, authorization: auth };
            if (key !== undefined) headers['idempotency-key'] = key;
            if (type !== undefined) headers['content-type'] = type;
            await sendChecked(`create key=${JSON.stringify(key)} type=${JSON.stringify(type)}`, {
              method: 'POST',
              url: '/api/v1/privacy/requests',
              headers,
              payload,
            });
          },
        ),
        RUNS,
      );
    });

    it('GET /privacy/requests and /policies/effective: any query string', async () => {
      const key = fc.oneof(
        fc.constantFrom('workspace_id', 'status', 'request_type', 'overdue', 'cursor', 'limit', 'repository'),
        encodedBytes,
      );
      const query = fc
        .array(fc.tuple(key, queryValue), { maxLength: 6 })
        .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('/api/v1/privacy/requests', '/api/v1/policies/effective'), query, async (path, q) => {
          await sendChecked(`${path}?${q}`, { url: `${path}?${q}`, headers: { authorization: auth } });
        }),
        RUNS,
      );
    });

    it('PUT policy layers: any body, any repository path', async () => {
      const repository = fc.oneof(
        fc.constantFrom('octo/repo', 'group/sub/project'),
        fc.string({ minLength: 1, maxLength: 60 }),
        controlText.filter((text) => text.length > 0),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.boolean(),
          repository,
          anyBody({ retention_days: 30 }, POLICY_FIELDS),
          async (layered, repo, payload) => {
            const url = layered
              ? `/api/v1/policies/workspaces/acme/repositories/${encodeURIComponent(repo)}`
              : '/api/v1/policies/workspaces/acme';
            await sendChecked(`PUT ${url}`, {
              method: 'PUT',
              url,
              headers: { authorization: auth, 'content-type': 'application/json' },
              payload,
            });
          },
        ),
        RUNS,
      );
    });

    it('path ids: any text (NUL and other control characters included) in every route that takes one', async () => {
      const id = fc.oneof(
        fc.string({ minLength: 1, maxLength: 50 }),
        controlText.filter((text) => text.length > 0),
      );
      const route = fc.constantFrom(
        ['GET', '/api/v1/privacy/requests/{}'],
        ['POST', '/api/v1/privacy/requests/{}/approve'],
        ['GET', '/api/v1/privacy/requests/{}/report'],
        ['GET', '/api/v1/policies/workspaces/{}'],
        ['DELETE', '/api/v1/policies/workspaces/acme/repositories/{}'],
        ['GET', '/api/v1/data-systems/{}'],
        ['DELETE', '/api/v1/data-systems/{}'],
        ['GET', '/api/v1/data-tasks/{}'],
        ['POST', '/api/v1/data-tasks/{}/result'],
      );
      await fc.assert(
        fc.asyncProperty(route, id, async ([method, template], value) => {
          const url = template.replace('{}', encodeURIComponent(value));
          await sendChecked(`${method} ${url}`, { method: method as 'GET', url, headers: { authorization: auth } });
        }),
        RUNS,
      );
    });
  });
}
