/**
 * A database system's `connection` (PRODUCT §2.14, issue 33 item 5), on the service's SQLite and
 * PostgreSQL stores: no URL parameter or `connection` key is ignored unawares (each refused with
 * a 422 naming it, storing nothing); `sslrootcert` is the CA's PEM text, sealed with the URL; and
 * against a real PostgreSQL serving TLS (a private cluster, certificate from a throwaway CA),
 * `verify-full` with that CA connects and without it is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../../helpers/databases.js';
import { SHOP_DATASET_YAML } from '../../helpers/connector-targets.js';
import { createPrivatePostgres, type PrivatePostgres, privatePostgresSkipReason } from '../../helpers/private-postgres.js';
import { makeTestCertificates, type TestCertificates } from '../../helpers/test-ca.js';
import { type Fixture, openFixture } from '../../helpers/worker.js';

const skip = privatePostgresSkipReason();
/** The shop dataset under another fides_key (one per system of a workspace). */
const datasetAs = (key: string) =>
  SHOP_DATASET_YAML.replaceAll('dataset: shop', `dataset: ${key}`)
    .replaceAll('shop.', `${key}.`)
    .replace('fides_key: shop', `fides_key: ${key}`);
let certificates: TestCertificates;
let cluster: PrivatePostgres | undefined;
before(async () => {
  certificates = makeTestCertificates(['IP:127.0.0.1']);
  if (!skip) cluster = await createPrivatePostgres({ tls: { cert: certificates.serverCert, key: certificates.serverKey } });
});
after(() => cluster?.cleanup());

for (const dialect of dialects()) {
  describe(`a database system's connection (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;
    let n = 0;
    const db = () => f.t.services.database.db;
    const count = async () => (await db().selectFrom('data_systems').select('id').execute()).length;
    const register = (connection: Record<string, unknown>, kind = 'postgres') =>
      f.t.app.inject({
        method: 'POST',
        url: '/api/v1/data-systems',
        headers: { authorization: admin },
        payload: {
          workspace_id: 'acme',
          key: `db-${++n}`,
          name: 'Shop database',
          kind,
          connection,
          dataset: datasetAs(`shop${n}`),
        },
      });
    const problems = (body: string) =>
      (JSON.parse(body) as { detail: { loc: string[]; msg: string }[] }).detail.map((d) => [d.loc.join('.'), d.msg]);

    before(async () => {
      f = await openFixture(dialect.create, { env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
      admin = await f.t.bearer(['admin'], ['acme']);
    });
    after(() => f.close());

    it('refuses every URL parameter but sslmode (ssl on MySQL), naming it; sslrootcert in the URL is told where it goes', async () => {
      const res = await register({
        url: 'postgres://app:S3cret@127.0.0.1:5432/shop?sslmode=require&options=-csearch_path%3Dx&host=evil',
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(problems(res.body), [
        [
          'body.connection.url',
          "Value error, the connection url parameter 'options' is not supported (the url takes sslmode only)",
        ],
        ['body.connection.url', "Value error, the connection url parameter 'host' is not supported (the url takes sslmode only)"],
      ]);
      assert.ok(!res.body.includes('S3cret') && !res.body.includes('evil'), 'the URL is never echoed');
      const file = await register({
        url: 'postgres://app:S3cret@127.0.0.1:5432/shop?sslmode=verify-full&sslrootcert=/etc/ca.pem',
      });
      assert.deepEqual(problems(file.body), [
        [
          'body.connection.url',
          "Value error, sslrootcert in the url would be a file path on the service's host: give the CA certificate's PEM text in connection.sslrootcert",
        ],
      ]);
      const mysql = await register({ url: 'mysql://app:S3cret@127.0.0.1:3306/shop?ssl=true&charset=latin1' }, 'mysql');
      assert.deepEqual(problems(mysql.body), [
        ['body.connection.url', "Value error, the connection url parameter 'charset' is not supported (the url takes ssl only)"],
      ]);
      assert.equal(await count(), 0, 'nothing stored');
    });

    it('refuses a connection key it does not know, a PEM that is not one, and a CA without verify-full', async () => {
      const url = 'postgres://app:S3cret@127.0.0.1:5432/shop?sslmode=verify-full';
      const unknown = await register({ url, ssl_mode: 'verify-full' });
      assert.equal(unknown.statusCode, 422, unknown.body);
      assert.deepEqual(problems(unknown.body), [['body.connection.ssl_mode', 'Extra inputs are not permitted']]);
      assert.ok(!unknown.body.includes('S3cret'), 'the connection is never echoed');
      const path = await register({ url, sslrootcert: '/etc/ssl/certs/ca.pem' });
      assert.deepEqual(problems(path.body), [
        [
          'body.connection.sslrootcert',
          'Value error, sslrootcert is the PEM text of the CA certificate (-----BEGIN CERTIFICATE-----…), not a file path',
        ],
      ]);
      const garbled = await register({
        url,
        sslrootcert: '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n',
      });
      assert.deepEqual(problems(garbled.body), [
        ['body.connection.sslrootcert', 'Value error, sslrootcert does not read as a PEM certificate'],
      ]);
      const unverified = await register({ url: url.replace('verify-full', 'require'), sslrootcert: certificates.caCert });
      assert.deepEqual(problems(unverified.body), [
        [
          'body.connection.sslrootcert',
          'Value error, sslrootcert is used only to verify the server: set sslmode=verify-full in the url',
        ],
      ]);
      assert.equal(await count(), 0, 'nothing stored');
    });

    it(
      'seals sslrootcert with the URL; verify-full against a TLS PostgreSQL connects with that CA, and without it is refused',
      { skip },
      async () => {
        const url = `postgres://postgres@127.0.0.1:${cluster!.port}/postgres?sslmode=verify-full`;
        const trusted = await register({ url, sslrootcert: certificates.caCert });
        assert.equal(trusted.statusCode, 201, trusted.body);
        const id = trusted.json().id as string;
        const row = await db()
          .selectFrom('data_systems')
          .select('connection_ciphertext')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        assert.ok(!row.connection_ciphertext!.includes('BEGIN CERTIFICATE'), 'sealed, not in clear');
        const probe = async (system: string) =>
          (
            await f.t.app.inject({
              method: 'POST',
              url: `/api/v1/data-systems/${system}/test`,
              headers: { authorization: admin },
            })
          ).json();
        const ok = await probe(id);
        assert.equal(ok.reachable, true, JSON.stringify(ok));

        const untrusted = await register({ url });
        assert.equal(untrusted.statusCode, 201, untrusted.body);
        const refused = await probe(untrusted.json().id as string);
        assert.equal(refused.reachable, false, JSON.stringify(refused));
        assert.match(refused.error, /^system db-\d+: /);
        assert.ok(!String(refused.error).includes('postgres://'), 'the URL is never shown');
      },
    );
  });
}
