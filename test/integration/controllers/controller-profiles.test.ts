/** The controller profile of a workspace (PRODUCT.md §2.10): PUT/GET, scopes, workspaces, audit, bad input. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const PROFILE = {
  name: 'Acme GmbH',
  contact_email: 'privacy@acme.example',
  dpo_contact: 'Dr. Jane Doe, dpo@acme.example',
  supervisory_authority: { name: 'Berlin Commissioner for Data Protection', url: 'https://www.datenschutz-berlin.de/' },
  privacy_notice_url: 'https://acme.example/privacy',
};

for (const dialect of dialects()) {
  describe(`controller profile (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let reader: string;
    const url = (workspace = 'acme') => `/api/v1/workspaces/${workspace}/controller`;
    const get = (authorization: string, workspace = 'acme') =>
      t.app.inject({ method: 'GET', url: url(workspace), headers: { authorization } });
    const put = (authorization: string, payload: unknown, workspace = 'acme') =>
      t.app.inject({ method: 'PUT', url: url(workspace), headers: { authorization }, payload: payload as object });
    const auditEntries = () =>
      t.services.database.db
        .selectFrom('audit_events')
        .select(['action', 'target_id', 'workspace_id', 'details'])
        .where('action', '=', 'controller.profile_written')
        .orderBy('seq')
        .execute();
    const storedRows = () => t.services.database.db.selectFrom('controller_profiles').selectAll().execute();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      admin = await t.bearer(['admin'], ['acme']);
      reader = await t.bearer(['privacy:read'], ['acme']);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('answers 404 with a sentence naming how to set one, while none is set', async () => {
      const res = await get(reader);
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), {
        detail:
          'No controller profile is set for this workspace; an admin sets one with PUT /api/v1/workspaces/{workspace_id}/controller',
      });
    });

    it('refuses bad input with a 422 and writes nothing', async () => {
      for (const body of [
        { contact_email: 'privacy@acme.example' },
        { ...PROFILE, contact_email: 'not an address' },
        { ...PROFILE, privacy_notice_url: 'javascript:alert(1)' },
        { ...PROFILE, supervisory_authority: { name: 'X', url: 'ftp://x.example' } },
        { ...PROFILE, dpo_contcat: 'typo' },
        // A name with a control character (issue 33): TAB, CR, LF, NUL, DEL, a C1 control.
        ...['\t', '\r', '\n', '\u0000', '\u007f', '\u0085'].map((c) => ({ ...PROFILE, name: `Acme${c}GmbH` })),
      ]) {
        const res = await put(admin, body);
        assert.equal(res.statusCode, 422, JSON.stringify(body));
        assert.ok(Array.isArray(res.json().detail));
      }
      assert.deepEqual(await storedRows(), []);
      assert.deepEqual(await auditEntries(), []);
    });

    it('needs admin to write and privacy:read to read, within the token workspaces', async () => {
      assert.equal((await put(reader, PROFILE)).statusCode, 403);
      const policyOnly = await t.bearer(['policy:read'], ['acme']);
      assert.equal((await get(policyOnly)).statusCode, 403);
      const otherAdmin = await t.bearer(['admin'], ['globex']);
      assert.equal((await put(otherAdmin, PROFILE)).statusCode, 403);
      assert.equal((await get(otherAdmin)).statusCode, 403);
      assert.deepEqual(await storedRows(), []);
    });

    it('stores the whole profile as a new version and answers it to readers', async () => {
      const first = await put(admin, PROFILE);
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(
        { ...(first.json() as object), updated_at: 'x' },
        { workspace_id: 'acme', ...PROFILE, version: 1, updated_at: 'x' },
      );
      const read = await get(reader);
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json(), first.json());

      // A PUT replaces the profile: the fields it leaves out are unset.
      const second = await put(admin, { name: 'Acme SE', contact_email: 'dsr@acme.example' });
      assert.equal(second.statusCode, 200);
      const body = (await get(reader)).json();
      assert.equal(body.version, 2);
      assert.deepEqual(
        [body.name, body.contact_email, body.dpo_contact, body.supervisory_authority],
        ['Acme SE', 'dsr@acme.example', undefined, undefined],
      );
      assert.equal((await get(reader, 'globex')).statusCode, 403);
    });

    it('audits each write with field names and version only, never the values', async () => {
      const entries = await auditEntries();
      assert.equal(entries.length, 2);
      assert.deepEqual(
        entries.map((e) => [e.target_id, e.workspace_id, JSON.parse(e.details)]),
        [
          [
            'acme',
            'acme',
            { version: 1, fields: ['name', 'contact_email', 'dpo_contact', 'supervisory_authority', 'privacy_notice_url'] },
          ],
          ['acme', 'acme', { version: 2, fields: ['name', 'contact_email'] }],
        ],
      );
      const all = JSON.stringify(await t.services.database.db.selectFrom('audit_events').selectAll().execute());
      for (const value of ['privacy@acme.example', 'dsr@acme.example', 'Jane Doe', 'Acme GmbH'])
        assert.ok(!all.includes(value), value);
    });
  });
}
