/**
 * A newcomer's receiver on loopback (issue 23, item 14): the 422 that refuses a private or
 * loopback endpoint URL, or `http://`, names the setting that allows it,
 * `OUTBOUND_ALLOW_PRIVATE_NETWORKS=true`; with that setting the same URL is registered. Both databases.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const HINT = 'OUTBOUND_ALLOW_PRIVATE_NETWORKS=true';

for (const dialect of dialects()) {
  describe(`a refused private endpoint URL names OUTBOUND_ALLOW_PRIVATE_NETWORKS (${dialect.name})`, () => {
    let database: TestDatabase;
    let strict: TestApp;
    let open: TestApp;
    before(async () => {
      database = await dialect.create();
      strict = await startTestApp(database);
      open = await startTestApp(database, { env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
    });
    after(async () => {
      await strict.close();
      await open.close();
      await database.drop();
    });

    it('422 on url: its msg says which setting allows a loopback or private receiver', async () => {
      const auth = await strict.bearer(['admin']);
      for (const url of ['https://127.0.0.1:9443/hooks', 'https://10.1.2.3/hooks', 'http://receiver.example.com/hooks']) {
        const res = await strict.app.inject({
          method: 'POST',
          url: '/api/v1/webhook-endpoints',
          headers: { authorization: auth },
          payload: { workspace_id: 'acme', url },
        });
        assert.equal(res.statusCode, 422, url);
        const [item] = (res.json() as { detail: { loc: string[]; msg: string }[] }).detail;
        assert.deepEqual(item?.loc, ['body', 'url']);
        assert.ok(item?.msg.includes(HINT), `${url}: ${item?.msg}`);
      }
      const allowed = await open.app.inject({
        method: 'POST',
        url: '/api/v1/webhook-endpoints',
        headers: { authorization: await open.bearer(['admin']) },
        payload: { workspace_id: 'acme', url: 'http://127.0.0.1:9443/hooks' },
      });
      assert.equal(allowed.statusCode, 201, allowed.body);
    });
  });
}
