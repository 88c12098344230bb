/**
 * A deletion keeps the opt-out (issue 36 item 4, PRODUCT §2.18): after a person opted out, a
 * deletion of that person run by the worker leaves the opt-out and the preference stored, and
 * its report lists them under `kept` ("to keep honouring your opt-out"); a deletion of a person
 * who never opted out says nothing of opt-outs. Both databases.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OPT_OUTS_WHAT } from '../../../src/modules/subject-data/erasure-report.fns.js';
import { dialects } from '../../helpers/databases.js';
import { type Fixture, fileRequest, openFixture, processAll, requestRow } from '../../helpers/worker.js';

for (const dialect of dialects()) {
  describe(`a deletion keeps the opt-out (${dialect.name})`, () => {
    let f: Fixture;

    before(async () => {
      f = await openFixture(() => dialect.create());
      // The people here are unknown to the service: let their deletions complete without review (PRODUCT §2.13).
      await f.t.services.policies.putLayer('acme', null, { confirm_no_data: false }, 'test');
    });
    after(() => f.close());

    const db = () => f.t.services.database.db;
    const count = async (table: 'opt_outs' | 'privacy_preferences', subjectId: string) =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('subject_id', '=', subjectId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    async function deletionOf(subjectId: string) {
      const deletion = await fileRequest(f, {
        request_type: 'deletion',
        scope: ['user'],
        subject_provider: 'github',
        subject_id: subjectId,
      });
      await processAll(f);
      assert.equal((await requestRow(f, deletion.id)).status, 'completed');
      const result = await db()
        .selectFrom('request_results')
        .select('report')
        .where('request_id', '=', deletion.id)
        .executeTakeFirstOrThrow();
      const report = JSON.parse(result.report ?? '{}') as {
        categories: Record<string, { kept: { what: string; why: string }[] }>;
      };
      const kept = Object.values(report.categories).flatMap((c) => c.kept);
      const forPerson = (await f.t.services.requestResults.deletionKept(deletion.id)) ?? [];
      return { kept, forPerson };
    }

    it('keeps the opt-out and the preference, and lists them as kept', async () => {
      const filed = await f.t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/opt-outs',
        headers: { authorization: f.auth, 'idempotency-key': 'oo-deletion-key-1' },
        payload: {
          workspace_id: 'acme',
          subject_provider: 'github',
          subject_id: '700001',
          kind: 'sale_sharing',
          choice: 'opt_out',
          source: 'form',
          client_request_id: 'crm-oo-deletion-1',
        },
      });
      assert.equal(filed.statusCode, 202, filed.body);

      const { kept, forPerson } = await deletionOf('700001');
      assert.equal(await count('opt_outs', '700001'), 1);
      assert.equal(await count('privacy_preferences', '700001'), 1);
      const read = await f.t.app.inject({
        url: `/api/v1/privacy/opt-outs/${filed.json().id}`,
        headers: { authorization: f.auth },
      });
      assert.equal(read.statusCode, 200, read.body);
      assert.equal(read.json().subject_id, '700001');
      assert.equal(kept.filter((k) => k.what === OPT_OUTS_WHAT).length, 1, JSON.stringify(kept));
      const entry = forPerson.find((k) => k.why.startsWith('To keep honouring your opt-out'));
      assert.ok(entry, JSON.stringify(forPerson));
      assert.match(entry.what, /opt-out/);
    });

    it('a deletion of a person who never opted out lists no opt-out', async () => {
      const { kept, forPerson } = await deletionOf('700002');
      assert.ok(kept.length > 0, 'the report keeps the request records at least');
      assert.ok(!kept.some((k) => k.what === OPT_OUTS_WHAT), JSON.stringify(kept));
      assert.ok(!forPerson.some((k) => /opt-out/.test(k.what + k.why)), JSON.stringify(forPerson));
    });
  });
}
