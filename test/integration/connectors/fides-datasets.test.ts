/**
 * Fides datasets unchanged (PRODUCT §2.17; issue 32 item 4): every dataset file of Ethyca Fides'
 * `data/dataset/` and `sample_project/sample_resources/` (test/fixtures/fides, copied byte for
 * byte) registered through the API as it is, on the service's SQLite and PostgreSQL stores: 201
 * for each file that uses only the supported features, otherwise the 422 that names the feature
 * (nested fields, references to another dataset, custom_request_field, partitioning, a masking
 * strategy the service does not apply, BigQuery namespaces), storing nothing. A file of several
 * datasets registers with `dataset_key` and without it is a 422 at ["body","dataset"] listing
 * the keys. docs/connectors.md lists the outcome of each file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, openFixture } from '../../helpers/worker.js';

type Problem = { loc: (string | number)[]; msg: string };
type Outcome =
  | { status: 201; kind: 'postgres' | 'mysql'; fides_key: string; dataset_key?: string }
  | { status: 422; includes: Problem[]; count: number };

const at = (...loc: (string | number)[]) => ['body', 'dataset', 'dataset', 0, ...loc];
const nested = 'nested fields are not supported: describe the column itself';
const crossRef = (key: string) => `references to another dataset are not supported (this one is ${key})`;
const CUSTOM = 'custom_request_field is not supported (the service has no custom request fields)';

/** Each Fides file (path under test/fixtures/fides/) and what registering it unchanged answers. */
const FILES: Record<string, Outcome> = {
  'dataset/postgres_example_test_dataset.yml': { status: 201, kind: 'postgres', fides_key: 'postgres_example_test_dataset' },
  'dataset/postgres_example_test_extended_dataset.yml': {
    status: 201,
    kind: 'postgres',
    fides_key: 'postgres_example_test_extended_dataset',
  },
  'dataset/google_cloud_sql_postgres_example_test_dataset.yml': {
    status: 201,
    kind: 'postgres',
    fides_key: 'google_cloud_sql_postgres_example_test_dataset',
  },
  'dataset/timebase_example_test_dataset.yml': { status: 201, kind: 'postgres', fides_key: 'timebase_example' },
  'dataset/redshift_example_test_dataset.yml': { status: 201, kind: 'postgres', fides_key: 'redshift_example_test_dataset' },
  'dataset/mysql_example_test_dataset.yml': { status: 201, kind: 'mysql', fides_key: 'mysql_example_test_dataset' },
  'dataset/mariadb_example_test_dataset.yml': { status: 201, kind: 'mysql', fides_key: 'mariadb_example_test_dataset' },
  'dataset/google_cloud_sql_mysql_example_test_dataset.yml': {
    status: 201,
    kind: 'mysql',
    fides_key: 'google_cloud_sql_mysql_example_test_dataset',
  },
  'dataset/mssql_example_test_dataset.yml': { status: 201, kind: 'postgres', fides_key: 'mssql_example_test_dataset' },
  'dataset/snowflake_example_test_dataset.yml': { status: 201, kind: 'postgres', fides_key: 'snowflake_example_test_dataset' },
  'dataset/dynamodb_example_test_dataset.yml': { status: 201, kind: 'postgres', fides_key: 'dynamodb_example_test_dataset' },
  'dataset/scylladb_example_test_dataset.yml': { status: 201, kind: 'postgres', fides_key: 'scylladb_example_test_dataset' },
  'sample_project/sample_resources/postgres_example_test_dataset.yml': {
    status: 201,
    kind: 'postgres',
    fides_key: 'postgres_example_test_dataset',
  },
  'sample_project/sample_resources/postgres_example_test_extended_dataset.yml': {
    status: 201,
    kind: 'postgres',
    fides_key: 'postgres_example_test_extended_dataset',
  },
  'dataset/postgres_example_custom_request_field_dataset.yml': {
    status: 422,
    includes: [{ loc: at('collections', 0, 'fields', 3, 'fides_meta', 'custom_request_field'), msg: CUSTOM }],
    count: 1,
  },
  'sample_project/sample_resources/postgres_example_custom_request_field_dataset.yml': {
    status: 422,
    includes: [{ loc: at('collections', 0, 'fields', 3, 'fides_meta', 'custom_request_field'), msg: CUSTOM }],
    count: 1,
  },
  'dataset/postgres_example_invalid_masking_strategy_override_dataset.yml': {
    status: 422,
    includes: [
      {
        loc: at('collections', 1, 'fields', 2, 'fides_meta', 'masking_strategy_override', 'strategy'),
        msg: 'strategy should be one of null, null_rewrite, string_rewrite, random_string_rewrite, hmac',
      },
    ],
    count: 1,
  },
  'dataset/bigquery_example_test_dataset.yml': {
    status: 422,
    includes: [
      { loc: at('collections', 1, 'fields', 1, 'fields'), msg: nested },
      {
        loc: at('collections', 11, 'fides_meta', 'partitioning'),
        msg: 'partitioning is not supported (it is for BigQuery tables)',
      },
    ],
    count: 6,
  },
  'dataset/bigquery_enterprise_test_dataset.yml': {
    status: 422,
    includes: [{ loc: at('fides_meta', 'resource_id'), msg: 'resource_id is not supported here (supported: namespace)' }],
    count: 5,
  },
  'dataset/email_dataset.yml': {
    status: 422,
    includes: [
      { loc: at('collections', 0, 'fields', 1, 'fides_meta', 'references', 0, 'dataset'), msg: crossRef('email_dataset') },
      { loc: at('collections', 1, 'fields', 4, 'fields'), msg: nested },
    ],
    count: 2,
  },
  'dataset/manual_dataset.yml': {
    status: 422,
    includes: [
      { loc: at('collections', 0, 'fields', 2, 'fides_meta', 'references', 0, 'dataset'), msg: crossRef('manual_input') },
    ],
    count: 2,
  },
  'dataset/example_field_masking_override_test_dataset.yml': {
    status: 422,
    includes: [{ loc: at('collections', 1, 'fields', 5, 'fields'), msg: nested }],
    count: 1,
  },
  'dataset/mongo_example_test_dataset.yml': {
    status: 422,
    includes: [
      { loc: at('collections', 0, 'fields', 1, 'fides_meta', 'references', 0, 'dataset'), msg: crossRef('mongo_test') },
      { loc: at('collections', 0, 'fields', 5, 'fields'), msg: nested },
    ],
    count: 12,
  },
  'sample_project/sample_resources/mongo_example_test_dataset.yml': {
    status: 422,
    includes: [
      { loc: at('collections', 0, 'fields', 1, 'fides_meta', 'references', 0, 'dataset'), msg: crossRef('mongo_test') },
      { loc: at('collections', 0, 'fields', 4, 'fields'), msg: nested },
    ],
    count: 12,
  },
  'dataset/remote_fides_example_test_dataset.yml': {
    status: 422,
    includes: [{ loc: ['body', 'categories'], msg: 'the dataset labels no field with a user.* category: name the categories' }],
    count: 1,
  },
  'dataset/example_test_datasets.yml': {
    status: 422,
    includes: [
      {
        loc: ['body', 'dataset'],
        msg: 'the Fides file holds 2 datasets (mssql_example_test_dataset, mariadb_example_test_dataset): choose one with dataset_key',
      },
    ],
    count: 1,
  },
};

const read = (path: string) => readFileSync(new URL(`../../fixtures/fides/${path}`, import.meta.url), 'utf8');

for (const dialect of dialects()) {
  describe(`Fides' own dataset files registered unchanged (${dialect.name} store)`, () => {
    let f: Fixture;
    let admin: string;
    let serial = 0;
    const systems = async () => (await f.t.services.database.db.selectFrom('data_systems').select('id').execute()).length;
    const register = (dataset: string, kind: string, over: Record<string, unknown> = {}) =>
      f.t.app.inject({
        method: 'POST',
        url: '/api/v1/data-systems',
        headers: { authorization: admin },
        payload: {
          workspace_id: 'acme',
          key: `fides-${++serial}`,
          name: 'A Fides dataset',
          kind,
          connection: { url: kind === 'mysql' ? 'mysql://u:p@127.0.0.1:3306/db' : 'postgres://u:p@127.0.0.1:5432/db' },
          dataset,
          ...over,
        },
      });
    /** Registers, checks the summary, and deletes the system (its fides_key is free again). */
    async function registers(dataset: string, kind: string, fidesKey: string, over: Record<string, unknown> = {}) {
      const res = await register(dataset, kind, over);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().dataset.fides_key, fidesKey);
      const gone = await f.t.app.inject({
        method: 'DELETE',
        url: `/api/v1/data-systems/${res.json().id}`,
        headers: { authorization: admin },
      });
      assert.equal(gone.statusCode, 204);
    }

    before(async () => {
      f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
      admin = await f.t.bearer(['admin'], ['acme']);
    });
    after(() => f?.close());

    it('every file of the fixture set is covered', async () => {
      const { readdirSync } = await import('node:fs');
      const listed = ['dataset', 'sample_project/sample_resources'].flatMap((dir) =>
        readdirSync(new URL(`../../fixtures/fides/${dir}`, import.meta.url))
          .filter((name) => name.endsWith('.yml'))
          .map((name) => `${dir}/${name}`),
      );
      assert.deepEqual(listed.sort(), Object.keys(FILES).sort());
    });

    for (const [path, outcome] of Object.entries(FILES))
      it(`${path}: ${outcome.status}`, async () => {
        if (outcome.status === 201) return registers(read(path), outcome.kind, outcome.fides_key);
        const before = await systems();
        const res = await register(read(path), 'postgres');
        assert.equal(res.statusCode, 422, res.body);
        const detail = res.json().detail as (Problem & { type: string })[];
        for (const problem of outcome.includes)
          assert.ok(
            detail.some((d) => JSON.stringify([d.loc, d.msg]) === JSON.stringify([problem.loc, `Value error, ${problem.msg}`])),
            `${JSON.stringify(problem)} in ${JSON.stringify(detail.map((d) => [d.loc, d.msg]))}`,
          );
        assert.equal(detail.length, outcome.count, JSON.stringify(detail.map((d) => [d.loc, d.msg])));
        assert.equal(await systems(), before, 'nothing stored');
      });

    it('the file of two datasets registers each with dataset_key; a key it does not hold is a 422 at dataset_key listing the keys', async () => {
      const file = read('dataset/example_test_datasets.yml');
      await registers(file, 'mysql', 'mariadb_example_test_dataset', { dataset_key: 'mariadb_example_test_dataset' });
      await registers(file, 'postgres', 'mssql_example_test_dataset', { dataset_key: 'mssql_example_test_dataset' });
      const wrong = await register(file, 'mysql', { dataset_key: 'postgres_example_test_dataset' });
      assert.equal(wrong.statusCode, 422);
      assert.deepEqual(
        wrong.json().detail.map((d: Problem) => [d.loc, d.msg]),
        [
          [
            ['body', 'dataset_key'],
            "Value error, dataset_key names none of the file's datasets (mssql_example_test_dataset, mariadb_example_test_dataset)",
          ],
        ],
      );
      const alone = await register(file, 'mysql', { dataset: undefined, dataset_key: 'mariadb_example_test_dataset' });
      assert.equal(alone.statusCode, 422);
      assert.ok(
        alone.json().detail.some((d: Problem) => d.loc.join('.') === 'body.dataset_key'),
        'dataset_key without dataset is refused',
      );
    });
  });
}
