/**
 * Webhook endpoints API (PRODUCT §2.8, issue 14) through `app.inject` on a real database, once
 * per dialect: scope `admin` and workspaces, the secret shown once and stored encrypted, URL and
 * event-type validation (422 with nothing written), patch, rotation, delete with its messages,
 * the message log with retry and recover, and audit entries that never hold a URL or a secret.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { newId } from '../../../src/lib/ids.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const BASE = '/api/v1/webhook-endpoints';
const URL_OK = 'https://hooks.example.com/privacy';
const RESOURCE_KEYS = [
  'created_at',
  'description',
  'disabled',
  'disabled_at',
  'event_types',
  'failing_since',
  'id',
  'updated_at',
  'url',
  'workspace_id',
];

for (const dialect of dialects()) {
  describe(`webhook endpoints API (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    const secrets: string[] = [];

    const call = (authorization: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
    const db = () => t.services.database.db;
    const counts = async () => ({
      endpoints: (await db().selectFrom('webhook_endpoints').select('id').execute()).length,
      audit: (await db().selectFrom('audit_events').select('id').execute()).length,
    });
    const noSecret = (res: LightMyRequestResponse) => {
      for (const secret of secrets) assert.ok(!res.body.includes(secret), `answer leaks a secret: ${res.body}`);
      assert.ok(!/secret_ciphertext|"secret"/.test(res.body), res.body);
    };
    async function create(payload: object) {
      const res = await call(admin, 'POST', BASE, payload);
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.match(body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(body.secret.slice(6), 'base64').length, 32);
      secrets.push(body.secret);
      assert.equal(res.headers.location, `${BASE}/${body.id}`);
      return body;
    }
    async function refused(payload: object, loc: (string | number)[], type: string) {
      const before = await counts();
      const res = await call(admin, 'POST', BASE, payload);
      assert.equal(res.statusCode, 422, res.body);
      const items = res.json().detail as { type: string; loc: unknown[] }[];
      assert.ok(
        items.some((i) => i.type === type && JSON.stringify(i.loc) === JSON.stringify(loc)),
        `expected ${type} at ${loc.join('.')}: ${res.body}`,
      );
      assert.deepEqual(await counts(), before, 'a refused create writes nothing');
    }

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      admin = await t.bearer(['admin'], ['acme']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('requires the admin scope and the workspace: 403, nothing written', async () => {
      const writer = await t.bearer(['privacy:write', 'privacy:read'], ['acme']);
      const before = await counts();
      assert.equal((await call(writer, 'POST', BASE, { workspace_id: 'acme', url: URL_OK })).statusCode, 403);
      assert.equal((await call(writer, 'GET', BASE)).statusCode, 403);
      assert.equal((await call(admin, 'POST', BASE, { workspace_id: 'other', url: URL_OK })).statusCode, 403);
      assert.equal(
        (await t.app.inject({ method: 'POST', url: BASE, payload: { workspace_id: 'acme', url: URL_OK } })).statusCode,
        401,
      );
      assert.deepEqual(await counts(), before);
    });

    it('creates an endpoint: 201, the secret once, stored encrypted, audited without URL or secret', async () => {
      const body = await create({
        workspace_id: 'acme',
        url: URL_OK,
        event_types: ['privacy_request.completed'],
        description: 'CRM',
      });
      const { secret, ...resource } = body;
      assert.deepEqual(Object.keys(resource).sort(), RESOURCE_KEYS);
      assert.deepEqual(
        [resource.workspace_id, resource.url, resource.event_types, resource.disabled, resource.description],
        ['acme', URL_OK, ['privacy_request.completed'], false, 'CRM'],
      );
      const row = await db().selectFrom('webhook_endpoints').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
      assert.ok(!row.secret_ciphertext.includes(secret.slice(6)), 'stored in plaintext');
      assert.equal(t.services.secretBox.open(row.secret_ciphertext), secret);
      const entries = await db().selectFrom('audit_events').selectAll().where('target_id', '=', body.id).execute();
      assert.deepEqual(
        entries.map((e) => e.action),
        ['webhook_endpoint.created'],
      );
      for (const e of entries) assert.ok(!e.details.includes('example.com') && !e.details.includes('whsec_'), e.details);
      const got = await call(admin, 'GET', `${BASE}/${body.id}`);
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), resource);
      noSecret(got);
      const list = await call(admin, 'GET', BASE);
      assert.deepEqual(
        list.json().items.map((i: { id: string }) => i.id),
        [body.id],
      );
      noSecret(list);
    });

    it('refuses http://, private and loopback addresses in any spelling, and bad URLs: 422 on url', async () => {
      for (const url of [
        'http://hooks.example.com/x',
        'https://127.0.0.1/x',
        'https://2130706433/x',
        'https://0177.0.0.1/x',
        'https://10.1.2.3/x',
        'https://169.254.169.254/latest',
        'https://100.64.0.1/x',
        'https://[::1]/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://[fd00:ec2::254]/x',
        'https://user:pw@hooks.example.com/x',
        'not a url',
      ])
        await refused({ workspace_id: 'acme', url }, ['body', 'url'], 'value_error');
    });

    it('refuses an unknown event type, an empty list and a missing url: 422, nothing written', async () => {
      await refused(
        { workspace_id: 'acme', url: URL_OK, event_types: ['privacy_request.exploded'] },
        ['body', 'event_types', 0],
        'literal_error',
      );
      await refused({ workspace_id: 'acme', url: URL_OK, event_types: [] }, ['body', 'event_types'], 'too_short');
      await refused({ workspace_id: 'acme' }, ['body', 'url'], 'missing');
    });

    it('patches fields, disables (pending messages fail) and enables again; 404 for another workspace', async () => {
      const { id } = await create({ workspace_id: 'acme', url: URL_OK });
      const now = new Date().toISOString();
      await db()
        .insertInto('outbound_messages')
        .values({
          id: newId('msg'),
          endpoint_id: id,
          workspace_id: 'acme',
          event_type: 'privacy_request.created',
          payload: '{}',
          status: 'pending',
          attempts: '[]',
          attempt_count: 0,
          next_attempt_at: now,
          lease_until: null,
          created_at: now,
        })
        .execute();
      const patched = await call(admin, 'PATCH', `${BASE}/${id}`, { event_types: ['privacy_request.created'], disabled: true });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual([patched.json().event_types, patched.json().disabled], [['privacy_request.created'], true]);
      assert.ok(patched.json().disabled_at);
      const statuses = await db().selectFrom('outbound_messages').select('status').where('endpoint_id', '=', id).execute();
      assert.deepEqual(
        statuses.map((m) => m.status),
        ['failed'],
        'a disabled endpoint is sent nothing more',
      );
      const enabled = await call(admin, 'PATCH', `${BASE}/${id}`, { disabled: false, event_types: null });
      assert.deepEqual([enabled.json().event_types, enabled.json().disabled, enabled.json().disabled_at], [null, false, null]);
      assert.equal((await call(admin, 'PATCH', `${BASE}/${id}`, { url: 'http://plain.example.com' })).statusCode, 422);
      const elsewhere = await t.bearer(['admin'], ['other']);
      assert.equal((await call(elsewhere, 'PATCH', `${BASE}/${id}`, { disabled: true })).statusCode, 404);
      assert.equal((await call(elsewhere, 'GET', `${BASE}/${id}`)).statusCode, 404);
      assert.equal((await call(admin, 'GET', `${BASE}/${id}`)).json().url, URL_OK, 'a refused patch changes nothing');
    });

    it('rotates the secret: 201 with a new one, the old kept encrypted for 24 h', async () => {
      const { id, secret: first } = await create({ workspace_id: 'acme', url: URL_OK });
      const res = await call(admin, 'POST', `${BASE}/${id}/rotate-secret`);
      assert.equal(res.statusCode, 201, res.body);
      const second = res.json().secret as string;
      secrets.push(second);
      assert.notEqual(second, first);
      const row = await db().selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(t.services.secretBox.open(row.secret_ciphertext), second);
      assert.equal(t.services.secretBox.open(row.previous_secret_ciphertext ?? ''), first);
      const hours = (Date.parse(row.previous_secret_expires_at ?? '') - Date.now()) / 3_600_000;
      assert.ok(hours > 23.9 && hours <= 24, `previous secret kept ${hours} h`);
    });

    it('lists messages with attempts, retries one, recovers failed ones, and deletes them with the endpoint', async () => {
      const { id } = await create({ workspace_id: 'acme', url: URL_OK });
      const now = new Date().toISOString();
      const attempt = { attempt: 1, at: now, status_code: 500, duration_ms: 12, error: 'http_500' };
      const message = (status: 'failed' | 'delivered') => ({
        id: newId('msg'),
        endpoint_id: id,
        workspace_id: 'acme',
        event_type: 'privacy_request.created',
        payload: '{"type":"privacy_request.created","timestamp":"x","data":{}}',
        status,
        attempts: JSON.stringify([attempt]),
        attempt_count: 1,
        next_attempt_at: null,
        lease_until: null,
        created_at: now,
      });
      const failed = [message('failed'), message('failed')];
      const delivered = message('delivered');
      await db()
        .insertInto('outbound_messages')
        .values([...failed, delivered])
        .execute();
      const list = await call(admin, 'GET', `${BASE}/${id}/messages?status=failed`);
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(
        list.json().items.map((m: { id: string }) => m.id),
        failed.map((m) => m.id).reverse(),
      );
      assert.deepEqual(list.json().items[0].attempts, [attempt]);
      assert.ok(!list.body.includes('"payload"'), 'the payload is not shown');
      const page = await call(admin, 'GET', `${BASE}/${id}/messages?limit=1`);
      assert.equal(page.json().items.length, 1);
      const next = await call(admin, 'GET', `${BASE}/${id}/messages?limit=5&cursor=${page.json().next_cursor}`);
      assert.equal(next.json().items.length, 2);
      assert.equal((await call(admin, 'GET', `${BASE}/${id}/messages?cursor=bogus`)).statusCode, 400);
      assert.equal((await call(admin, 'GET', `${BASE}/${id}/messages?status=lost`)).statusCode, 422);

      const retried = await call(admin, 'POST', `${BASE}/${id}/messages/${delivered.id}/retry`);
      assert.equal(retried.statusCode, 202, retried.body);
      assert.equal(retried.json().status, 'pending');
      assert.equal((await call(admin, 'POST', `${BASE}/${id}/messages/msg_nope/retry`)).statusCode, 404);

      const bad = await call(admin, 'POST', `${BASE}/${id}/recover`, { since: 'yesterday' });
      assert.equal(bad.statusCode, 422, bad.body);
      const recovered = await call(admin, 'POST', `${BASE}/${id}/recover`, {
        since: new Date(Date.now() - 60_000).toISOString(),
      });
      assert.equal(recovered.statusCode, 202, recovered.body);
      assert.deepEqual(recovered.json(), { requeued: 2 });
      const statuses = await db().selectFrom('outbound_messages').select('status').where('endpoint_id', '=', id).execute();
      assert.deepEqual(
        statuses.map((s) => s.status),
        ['pending', 'pending', 'pending'],
      );
      const actions = (
        await db().selectFrom('audit_events').select('action').where('target_id', '=', id).orderBy('seq').execute()
      ).map((a) => a.action);
      assert.deepEqual(actions, ['webhook_endpoint.created', 'webhook_endpoint.message_retried', 'webhook_endpoint.recovered']);

      assert.equal((await call(admin, 'DELETE', `${BASE}/${id}`)).statusCode, 204);
      assert.equal((await call(admin, 'GET', `${BASE}/${id}`)).statusCode, 404);
      assert.equal((await call(admin, 'DELETE', `${BASE}/${id}`)).statusCode, 404);
      const left = await db().selectFrom('outbound_messages').select('id').where('endpoint_id', '=', id).execute();
      assert.equal(left.length, 0, 'messages go with their endpoint');
    });
  });
}
