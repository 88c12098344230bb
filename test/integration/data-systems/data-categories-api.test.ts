/**
 * `GET /api/v1/data-categories` (PRODUCT §2.14): the Fides default taxonomy's keys, readable with any
 * token; every `user.*` key is a valid request scope, `system.*` keys are not.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, openFixture } from '../../helpers/worker.js';
import { createBody } from '../../helpers/requests.js';

for (const dialect of dialects()) {
  describe(`data categories (${dialect.name})`, () => {
    let f: Fixture;
    before(async () => {
      f = await openFixture(dialect.create);
    });
    after(() => f.close());

    it('lists the categories with names, the taxonomy their keys follow and which keys are scopes; any token reads it, none is a 401', async () => {
      const reader = await f.t.bearer(['policy:read']);
      const res = await f.t.app.inject({ method: 'GET', url: '/api/v1/data-categories', headers: { authorization: reader } });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as {
        items: { fides_key: string; name: string; parent_key: string | null; scope: boolean }[];
        source: { keys_compatible_with: string };
      };
      const byKey = new Map(body.items.map((i) => [i.fides_key, i]));
      assert.equal(byKey.get('user.contact.email')?.name, 'E-mail address');
      assert.equal(byKey.get('user.contact.email')?.parent_key, 'user.contact');
      assert.equal(byKey.get('system.operations')?.scope, false);
      assert.equal(byKey.get('user.financial.bank_account')?.scope, true);
      assert.ok(body.items.length >= 80);
      assert.ok(body.items.every((i) => i.scope === i.fides_key.startsWith('user')));
      assert.match(body.source.keys_compatible_with, /fideslang/);
      assert.ok(
        body.items.every((i) => i.name.length > 0 && !i.name.includes('.')),
        'every category has a name in words, not its key',
      );
      const anonymous = await f.t.app.inject({ method: 'GET', url: '/api/v1/data-categories' });
      assert.equal(anonymous.statusCode, 401);
    });

    it('files a request scoped to a taxonomy key beyond the six; a system.* scope is a 422 naming the item', async () => {
      const file = (scope: string[]) =>
        f.t.app.inject({
          method: 'POST',
          url: '/api/v1/privacy/requests',
          headers: { authorization: f.auth, 'idempotency-key': `key-${scope.join('-')}` },
          payload: createBody({ scope, client_request_id: `crm-${scope.join('-')}` }),
        });
      const ok = await file(['user.contact.address.city', 'user.financial']);
      assert.equal(ok.statusCode, 202, ok.body);
      const bad = await file(['user', 'system.operations']);
      assert.equal(bad.statusCode, 422);
      const detail = bad.json().detail as { type: string; loc: unknown[] }[];
      assert.deepEqual(
        detail.map((d) => [d.type, d.loc]),
        [['literal_error', ['body', 'scope', 1]]],
      );
    });
  });
}
