/**
 * A data system's declared processing (issue 32 item 8, PRODUCT §2.17): `purposes`,
 * `recipients`, `retention` and `source`, plain-text lists on create and PATCH of every kind,
 * returned in the resource (null when not declared), withdrawn with `null`, bounded (422 in the
 * Pydantic shape, nothing stored; the create body's cases are in the golden file). The column
 * values survive a round trip through each store. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../../helpers/databases.js';
import { insertEndpoint } from '../../helpers/data-systems.js';
import { type Fixture, openFixture } from '../../helpers/worker.js';

const DECLARED = {
  purposes: ['Answering your support questions'],
  recipients: ['Our support contractor in Lisbon', 'No one else'],
  retention: ['Two years after the last ticket'],
  source: ['You, when you wrote to support'],
};
const NONE = { purposes: null, recipients: null, retention: null, source: null };
const declaredOf = (r: Record<string, unknown>) => ({
  purposes: r.purposes,
  recipients: r.recipients,
  retention: r.retention,
  source: r.source,
});

for (const dialect of dialects()) {
  describe(`declared processing of data systems (${dialect.name})`, () => {
    let f: Fixture;
    let admin: string;
    const call = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object) =>
      f.t.app.inject({ method, url, headers: { authorization: admin }, ...(payload ? { payload } : {}) });
    const stored = async (id: string) =>
      f.t.services.database.db
        .selectFrom('data_systems')
        .select(['purposes', 'recipients', 'retention', 'source', 'updated_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    before(async () => {
      f = await openFixture(dialect.create);
      admin = await f.t.bearer(['admin'], ['acme']);
    });
    after(() => f.close());

    it('a manual and a webhook system take the four lists on create; the resource and the list return them', async () => {
      const manual = await call('POST', '/api/v1/data-systems', {
        workspace_id: 'acme',
        key: 'helpdesk',
        name: 'Help desk',
        categories: ['user.contact'],
        request_types: ['access'],
        ...DECLARED,
        recipients: ['  Our support contractor in Lisbon ', 'No one else', 'No one else'],
      });
      assert.equal(manual.statusCode, 201, manual.body);
      assert.deepEqual(declaredOf(manual.json()), DECLARED, 'trimmed, repeats dropped');
      assert.deepEqual(declaredOf((await call('GET', `/api/v1/data-systems/${manual.json().id}`)).json()), DECLARED);
      const endpoint = await insertEndpoint(f.t.services.database.db, 'acme');
      const webhook = await call('POST', '/api/v1/data-systems', {
        workspace_id: 'acme',
        key: 'crm',
        name: 'CRM',
        categories: ['user'],
        request_types: ['deletion'],
        endpoint_id: endpoint,
        purposes: ['Sending you the newsletter you asked for'],
      });
      assert.equal(webhook.statusCode, 201, webhook.body);
      assert.deepEqual(declaredOf(webhook.json()), { ...NONE, purposes: ['Sending you the newsletter you asked for'] });
      const list = (await call('GET', '/api/v1/data-systems?workspace_id=acme')).json().items as Record<string, unknown>[];
      assert.deepEqual(
        list.map((s) => [s.key, declaredOf(s)]),
        [
          ['crm', { ...NONE, purposes: ['Sending you the newsletter you asked for'] }],
          ['helpdesk', DECLARED],
        ],
      );
      assert.deepEqual(await stored(manual.json().id), {
        purposes: JSON.stringify(DECLARED.purposes),
        recipients: JSON.stringify(DECLARED.recipients),
        retention: JSON.stringify(DECLARED.retention),
        source: JSON.stringify(DECLARED.source),
        updated_at: manual.json().updated_at,
      });
    });

    it('PATCH sets a list, keeps the others, and withdraws one with null; the audit names the fields, not the words', async () => {
      const created = await call('POST', '/api/v1/data-systems', {
        workspace_id: 'acme',
        key: 'billing',
        name: 'Billing',
        categories: ['user'],
        request_types: ['access'],
        ...DECLARED,
      });
      const id = created.json().id as string;
      const patched = await call('PATCH', `/api/v1/data-systems/${id}`, {
        retention: ['Ten years, as tax law requires'],
        source: null,
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(declaredOf(patched.json()), { ...DECLARED, retention: ['Ten years, as tax law requires'], source: null });
      assert.equal((await stored(id)).source, null);
      const [audit] = await f.t.services.database.db
        .selectFrom('audit_events')
        .select('details')
        .where('target_id', '=', id)
        .where('action', '=', 'data_system.updated')
        .execute();
      assert.deepEqual(JSON.parse(audit!.details).fields, ['retention', 'source']);
      assert.doesNotMatch(audit!.details, /tax law/);
    });

    it('PATCH refuses a blank, too long or empty list, or a non-list, with a 422 at the field, storing nothing', async () => {
      const created = await call('POST', '/api/v1/data-systems', {
        workspace_id: 'acme',
        key: 'archive',
        name: 'Archive',
        categories: ['user'],
        request_types: ['access'],
        ...DECLARED,
      });
      const id = created.json().id as string;
      const before = await stored(id);
      const bad = await call('PATCH', `/api/v1/data-systems/${id}`, {
        purposes: [],
        recipients: ['  '],
        retention: ['r'.repeat(501)],
        source: 'you',
      });
      assert.equal(bad.statusCode, 422, bad.body);
      const locs = (bad.json().detail as { loc: (string | number)[]; type: string }[]).map((d) => [d.loc.join('.'), d.type]);
      assert.deepEqual(locs, [
        ['body.purposes', 'too_short'],
        ['body.recipients.0', 'string_pattern_mismatch'],
        ['body.retention.0', 'string_too_long'],
        ['body.source', 'list_type'],
      ]);
      const many = await call('PATCH', `/api/v1/data-systems/${id}`, { purposes: Array.from({ length: 21 }, (_, i) => `p${i}`) });
      assert.equal(many.statusCode, 422, many.body);
      assert.deepEqual(await stored(id), before);
    });
  });
}
