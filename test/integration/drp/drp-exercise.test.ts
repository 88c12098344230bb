/**
 * DRP Data Rights Exercise, Status and Revoke (PRODUCT §2.19; DRP 1.0 §2.01–§2.04) with real
 * Ed25519 signatures from the test agent, on SQLite and PostgreSQL: what an exercise files, the
 * status object, revocation, and that every refused message stores and audits nothing.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import {
  createDrpAgent,
  type DrpTestAgent,
  fixtureDrpAgent,
  respelled,
  TIMES,
  withOneByteChanged,
} from '../../helpers/drp-agent.js';
import { tableCounts } from '../../hostile/table-counts.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

for (const dialect of dialects()) {
  describe(`DRP exercise, status and revoke (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let now = Date.parse('2026-12-07T12:00:00.000Z');
    const agent = fixtureDrpAgent();
    const other = createDrpAgent('other-agent');
    const tokens = new Map<string, string>();
    const db = () => t.services.database.db;
    const at = () => TIMES.fresh(new Date(now));
    const exercise = (body: string, token = tokens.get(agent.agentId)!, path = '/drp/v1/data-rights-request') =>
      t.app.inject({
        method: 'POST',
        url: path,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        payload: body,
      });
    const status = (id: string, token = tokens.get(agent.agentId)!) =>
      t.app.inject({ url: `/drp/v1/data-rights-request/${id}`, headers: { authorization: `Bearer ${token}` } });
    const revoke = (id: string, body: string, token = tokens.get(agent.agentId)!) =>
      // As OSIRAA sends it: no Content-Type.
      t.app.inject({
        method: 'DELETE',
        url: `/drp/v1/data-rights-request/${id}`,
        headers: { authorization: `Bearer ${token}` },
        payload: body,
      });
    const claims = (fields: Record<string, unknown> = {}, by: DrpTestAgent = agent) =>
      by.exerciseClaims('acme-retail', at(), fields);
    const pairAs = async (a: DrpTestAgent) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/drp/v1/agent/${a.agentId}`,
        payload: a.sign(a.keySetupClaims('acme-retail', at())),
      });
      assert.equal(res.statusCode, 200, res.body);
      tokens.set(a.agentId, res.json().token);
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { clock: () => new Date(now) });
      admin = await t.bearer(['admin', 'privacy:read', 'privacy:write'], ['acme']);
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/workspaces/acme/drp',
        headers: { authorization: admin },
        payload: {
          enabled: true,
          business_id: 'acme-retail',
          name: 'Acme',
          supported_actions: ['access', 'deletion', 'sale:opt-out'],
        },
      });
      assert.equal(put.statusCode, 200);
      for (const [a, confirm] of [
        [agent, false],
        [other, true],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/drp/agents',
          headers: { authorization: admin },
          payload: {
            workspace_id: 'acme',
            agent_id: a.agentId,
            name: `Agent ${a.agentId}`,
            verify_key: a.verifyKey,
            confirm_with_consumer: confirm,
          },
        });
        assert.equal(res.statusCode, 201);
        await pairAs(a);
      }
    });
    beforeEach(() => {
      now += 60_000;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('refuses, storing and auditing nothing: changed byte, expired, replay of nothing, wrong business, bad claims, no token', async () => {
      const before = await tableCounts(t.services);
      const drpBefore = await db().selectFrom('drp_requests').select('request_id').execute();
      const cases: [string, number, Record<string, unknown>, string?][] = [
        [withOneByteChanged(agent.sign(claims())), 403, { code: '403', message: 'Signature does not verify', fatal: true }],
        [
          agent.sign(agent.exerciseClaims('acme-retail', TIMES.expired(new Date(now)))),
          403,
          { code: '403', message: 'Request expired: expires-at has passed', fatal: true },
        ],
        [
          agent.sign(agent.exerciseClaims('globex', at())),
          403,
          { code: '403', message: 'business-id names another business', fatal: true },
        ],
        [
          agent.sign(claims({ 'agent-id': 'other-agent' })),
          403,
          { code: '403', message: 'agent-id does not match the bearer token', fatal: true },
        ],
        [other.sign(claims({}, other)), 403, { code: '403', message: 'Signature does not verify', fatal: true }],
        [
          agent.sign(claims({ exercise: 'erase' })),
          400,
          { code: '400', message: 'Unsupported rights actions submitted.', fatal: true },
        ],
        [
          agent.sign(claims({ regime: 'gdpr' })),
          400,
          { code: '400', message: 'Unsupported regime: DRP 1.0 knows ccpa and voluntary', fatal: true },
        ],
        [
          agent.sign(claims({ email: 'not an address' })),
          400,
          { code: '400', message: 'email is not an e-mail address', fatal: true },
        ],
        [
          agent.sign(claims({ status_callback: 'http://10.0.0.1/cb' })),
          400,
          { code: '400', message: 'status_callback must use https://', fatal: true },
        ],
        [
          agent.sign(claims(), 'compact'),
          401,
          { code: '401', message: 'Invalid or missing bearer token', fatal: true },
          'drp_' + 'B'.repeat(43),
        ],
      ];
      for (const [body, code, answer, token] of cases) {
        const res = await exercise(body, token);
        assert.equal(res.statusCode, code, res.body);
        assert.deepEqual(res.json(), answer);
      }
      assert.deepEqual(await tableCounts(t.services), before);
      assert.deepEqual(await db().selectFrom('drp_requests').select('request_id').execute(), drpBefore);
    });

    it('a deletion (ccpa) is filed at once as a privacy request with the agent; status; replay and reused agent-request-id are 409 naming the first', async () => {
      const body = agent.sign(claims({ 'agent-request-id': 'ar-1', power_of_attorney: 'poa-77' }));
      const res = await exercise(body, undefined, '/drp/v1/data-rights-request/');
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      assert.match(answer.request_id, UUID);
      assert.equal(answer.agent_request_id, 'ar-1');
      assert.equal(answer.received_at, new Date(now).toISOString());
      assert.ok(['open', 'in_progress'].includes(answer.status), answer.status);
      assert.equal(answer.reason, undefined);

      const record = await db()
        .selectFrom('drp_requests')
        .selectAll()
        .where('request_id', '=', answer.request_id)
        .executeTakeFirstOrThrow();
      assert.doesNotMatch(JSON.stringify(record), /jane|Doe/i);
      const pr = await t.app.inject({
        url: `/api/v1/privacy/requests/${record.privacy_request_id}`,
        headers: { authorization: admin },
      });
      assert.equal(pr.statusCode, 200);
      const request = pr.json();
      assert.equal(request.request_type, 'deletion');
      assert.deepEqual(request.scope, ['user']);
      assert.equal(request.subject_provider, 'email');
      assert.equal(request.subject_id, 'jane.doe@example.com');
      assert.equal(request.intake_ref, `drp:${answer.request_id}`);
      assert.equal(request.client_request_id, `drp-${answer.request_id}`);
      assert.equal(request.received_at, answer.received_at);
      assert.match(request.regulation, /ccpa/);
      assert.deepEqual(request.agent, {
        id: agent.agentId,
        name: `Agent ${agent.agentId}`,
        drp_request_id: answer.request_id,
        proof_ref: 'poa-77',
      });
      assert.equal(answer.expected_by, request.extended_due_at ?? request.due_at);
      const [created] = await db()
        .selectFrom('audit_events')
        .select(['actor', 'actor_name', 'details'])
        .where('action', '=', 'privacy_request.created')
        .where('target_id', '=', request.id)
        .execute();
      assert.equal(created!.actor, `agent:${agent.agentId}`);
      assert.doesNotMatch(JSON.stringify(created), /jane/);

      const got = await status(answer.request_id);
      assert.equal(got.statusCode, 200);
      assert.deepEqual(got.json(), answer);

      const replay = await exercise(respelled(body));
      assert.equal(replay.statusCode, 409);
      assert.deepEqual(replay.json(), { code: '409', message: 'Already received', fatal: false, request_id: answer.request_id });
      now += 1000;
      const reused = await exercise(agent.sign(claims({ 'agent-request-id': 'ar-1' })));
      assert.equal(reused.statusCode, 409);
      assert.equal(reused.json().request_id, answer.request_id);
      // Another agent cannot read it; an unknown id is a 404.
      const foreign = await status(answer.request_id, tokens.get(other.agentId));
      assert.deepEqual([foreign.statusCode, foreign.json()], [403, { code: '403', message: "Not this agent's request" }]);
      const unknown = await status('7d8b1a9e-0000-4000-8000-000000000000');
      assert.deepEqual([unknown.statusCode, unknown.json()], [404, { code: '404', message: 'No such request' }]);
    });

    it('in flight at once, the same body twice or one agent-request-id in two bodies files once; the record, its digest and answer land with the filing', async () => {
      const filedBefore = await db().selectFrom('privacy_requests').select('id').execute();
      const body = agent.sign(claims({ 'agent-request-id': 'ar-race-1', email: 'race.one@example.com' }));
      const twins = await Promise.all([exercise(body), exercise(respelled(body))]);
      now += 1000;
      const rivals = await Promise.all([
        exercise(agent.sign(claims({ 'agent-request-id': 'ar-race-2', email: 'race.two@example.com' }))),
        exercise(agent.sign(claims({ 'agent-request-id': 'ar-race-2', email: 'race.three@example.com' }))),
      ]);
      now += 1000;
      const untagged = agent.sign(claims({ email: 'race.four@example.com' }));
      const untaggedTwins = await Promise.all([exercise(untagged), exercise(untagged)]);
      for (const pair of [twins, rivals, untaggedTwins]) {
        const codes = pair.map((r) => r.statusCode).sort();
        assert.deepEqual(codes, [200, 409], pair.map((r) => r.body).join(' | '));
        const won = pair.find((r) => r.statusCode === 200)!.json();
        const lost = pair.find((r) => r.statusCode === 409)!.json();
        assert.equal(lost.code, '409');
        assert.equal(lost.message, 'Already received');
        // The loser was answered after the winner's commit: it names the winner.
        assert.equal(lost.request_id, won.request_id);
        const record = await db()
          .selectFrom('drp_requests')
          .selectAll()
          .where('request_id', '=', won.request_id)
          .executeTakeFirstOrThrow();
        assert.notEqual(record.privacy_request_id, null);
        assert.deepEqual(JSON.parse(record.last_status!), won);
        const digests = await db().selectFrom('drp_digests').select('digest').where('request_id', '=', won.request_id).execute();
        assert.equal(digests.length, 1);
      }
      const filedAfter = await db().selectFrom('privacy_requests').select('id').execute();
      assert.equal(filedAfter.length - filedBefore.length, 3);
    });

    it('an action the business does not take is denied claim_not_covered and files nothing; no email: insuf_verification', async () => {
      const requests = (await db().selectFrom('privacy_requests').select('id').execute()).length;
      const res = await exercise(agent.sign(claims({ exercise: 'access:categories' })));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'denied');
      assert.equal(res.json().reason, 'claim_not_covered');
      assert.equal(res.json().processing_details, 'This business takes these DRP actions: access, deletion, sale:opt-out.');
      now += 1000;
      const noEmail = await exercise(agent.sign(claims({ email: undefined })));
      assert.deepEqual([noEmail.json().status, noEmail.json().reason], ['denied', 'insuf_verification']);
      now += 1000;
      // An agent whose registration asks to confirm with the person: it waits for the person's code, filing nothing yet.
      const confirm = await exercise(other.sign(claims({}, other)), tokens.get(other.agentId));
      assert.equal(confirm.statusCode, 200, confirm.body);
      assert.deepEqual([confirm.json().status, confirm.json().reason], ['in_progress', 'need_user_verification']);
      assert.match(
        confirm.json().user_verification_url,
        /\/privacy-center\/acme\/agent-requests\/[0-9a-f-]{36}\/verify\?token=[\w-]{43}$/,
      );
      assert.equal(Date.parse(confirm.json().expires_at) - now, 14 * 24 * 3600 * 1000);
      assert.equal((await db().selectFrom('privacy_requests').select('id').execute()).length, requests);
      assert.equal((await status(res.json().request_id)).json().status, 'denied');
    });

    it('sale:opt-out files an opt-out of kind sale_sharing with source agent', async () => {
      const res = await exercise(agent.sign(claims({ exercise: 'sale:opt-out', email: 'sam@example.com' })));
      assert.equal(res.statusCode, 200, res.body);
      const record = await db()
        .selectFrom('drp_requests')
        .selectAll()
        .where('request_id', '=', res.json().request_id)
        .executeTakeFirstOrThrow();
      assert.equal(record.privacy_request_id, null);
      const optOut = await db().selectFrom('opt_outs').selectAll().where('id', '=', record.opt_out_id!).executeTakeFirstOrThrow();
      assert.deepEqual(
        [optOut.kind, optOut.choice, optOut.source, optOut.subject_id],
        ['sale_sharing', 'opt_out', 'agent', 'sam@example.com'],
      );
      assert.equal(res.json().expected_by, optOut.due_at);
      const resource = await t.app.inject({ url: `/api/v1/privacy/opt-outs/${optOut.id}`, headers: { authorization: admin } });
      assert.equal(resource.statusCode, 200, resource.body);
      assert.deepEqual(resource.json().agent, {
        id: agent.agentId,
        name: `Agent ${agent.agentId}`,
        drp_request_id: res.json().request_id,
        proof_ref: null,
      });
      assert.ok(['in_progress', 'fulfilled'].includes(res.json().status));
    });

    it('whole life: pair, exercise a deletion, status, revoke it (audited with the agent), revoke again; another agent cannot revoke', async () => {
      const filed = await exercise(agent.sign(claims({ email: 'kim@example.com' })));
      const id = filed.json().request_id as string;
      const foreign = await revoke(id, other.sign({ reason: 'mine' }), tokens.get(other.agentId));
      assert.equal(foreign.statusCode, 403);
      const tampered = await revoke(id, withOneByteChanged(agent.sign({ reason: 'The person asked us to stop' })));
      assert.equal(tampered.statusCode, 403);
      const wrongId = await revoke(id, agent.sign({ request_id: '7d8b1a9e-0000-4000-8000-000000000000' }));
      assert.equal(wrongId.statusCode, 400);

      const res = await revoke(id, agent.sign({ reason: 'The person asked us to stop' }));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'revoked');
      const record = await db().selectFrom('drp_requests').selectAll().where('request_id', '=', id).executeTakeFirstOrThrow();
      const request = (
        await t.app.inject({ url: `/api/v1/privacy/requests/${record.privacy_request_id}`, headers: { authorization: admin } })
      ).json();
      assert.equal(request.status, 'canceled');
      assert.equal(request.status_reason, 'Revoked by the authorized agent: The person asked us to stop');
      const [canceled] = await db()
        .selectFrom('audit_events')
        .select(['actor', 'action'])
        .where('target_id', '=', request.id)
        .where('action', '!=', 'privacy_request.created')
        .execute();
      assert.equal(canceled!.actor, `agent:${agent.agentId}`);
      const again = await revoke(id, agent.sign({}));
      assert.deepEqual([again.statusCode, again.json()], [200, res.json()]);
      assert.equal((await status(id)).json().status, 'revoked');

      // A denied request cannot be revoked: 409, nothing changes.
      const denied = await exercise(agent.sign(claims({ exercise: 'sale:opt-in' })));
      assert.equal(denied.statusCode, 200);
      const claimNotCovered = denied.json().request_id as string;
      const final = await revoke(claimNotCovered, agent.sign({}));
      assert.deepEqual(
        [final.statusCode, final.json()],
        [409, { code: '409', message: 'Request is already denied', fatal: false }],
      );
    });

    it('an operator cancel shows as denied/other with the reason', async () => {
      const filed = await exercise(agent.sign(claims({ email: 'lee@example.com' })));
      const id = filed.json().request_id as string;
      const record = await db().selectFrom('drp_requests').selectAll().where('request_id', '=', id).executeTakeFirstOrThrow();
      const cancel = await t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${record.privacy_request_id}/cancel`,
        headers: { authorization: admin },
        payload: { reason: 'Duplicate of an e-mailed request' },
      });
      assert.equal(cancel.statusCode, 200, cancel.body);
      const got = (await status(id)).json();
      assert.deepEqual([got.status, got.reason, got.processing_details], ['denied', 'other', 'Duplicate of an e-mailed request']);
    });

    it('GET /api/v1/drp/requests lists the records (denied ones too) by agent and DRP status, never a claim', async () => {
      const reader = await t.bearer(['privacy:read'], ['acme']);
      const list = async (query: string) => {
        const res = await t.app.inject({ url: `/api/v1/drp/requests?${query}`, headers: { authorization: reader } });
        assert.equal(res.statusCode, 200, res.body);
        return res.json().items as { request_id: string; agent_id: string; status: string; reason: string | null }[];
      };
      const all = await list('workspace_id=acme');
      const records = await db().selectFrom('drp_requests').select('request_id').execute();
      assert.equal(all.length, records.length);
      assert.doesNotMatch(JSON.stringify(all), /@example\.com|poa-77/);
      const denied = await list('workspace_id=acme&status=denied');
      assert.ok(denied.length >= 3);
      assert.ok(denied.every((item) => item.status === 'denied'));
      assert.ok(denied.some((item) => item.reason === 'claim_not_covered'));
      const revoked = await list('status=revoked');
      assert.equal(revoked.length, 1);
      const others = await list('agent_id=other-agent');
      assert.deepEqual(
        others.map((item) => [item.agent_id, item.status, item.reason]),
        [['other-agent', 'in_progress', 'need_user_verification']],
      );
      const outside = await t.app.inject({ url: '/api/v1/drp/requests?workspace_id=globex', headers: { authorization: reader } });
      assert.equal(outside.statusCode, 403);
      const bad = await t.app.inject({ url: '/api/v1/drp/requests?status=done', headers: { authorization: reader } });
      assert.equal(bad.statusCode, 422);
    });

    it('GET /api/v1/drp/requests/{request_id}: one record with the relationships hints, proof reference and attested flags; 404 elsewhere', async () => {
      const res = await exercise(
        agent.sign(
          claims({ email: 'hints@example.com', relationships: ['customer', 'loyalty member'], power_of_attorney: 'poa-9' }),
        ),
      );
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().request_id as string;
      const reader = await t.bearer(['privacy:read'], ['acme']);
      const got = await t.app.inject({ url: `/api/v1/drp/requests/${id}`, headers: { authorization: reader } });
      assert.equal(got.statusCode, 200, got.body);
      const record = got.json();
      assert.equal(record.request_id, id);
      assert.equal(record.workspace_id, 'acme');
      assert.deepEqual(record.relationships, ['customer', 'loyalty member']);
      assert.equal(record.proof_ref, 'poa-9');
      assert.equal(record.email_verified, true);
      assert.ok(['open', 'in_progress'].includes(record.status));
      assert.doesNotMatch(got.body, /hints@example\.com/);
      const outsider = await t.bearer(['privacy:read'], ['globex']);
      for (const [url, who] of [
        [`/api/v1/drp/requests/${id}`, outsider],
        ['/api/v1/drp/requests/7d8b1a9e-0000-4000-8000-000000000000', reader],
      ] as const) {
        const missing = await t.app.inject({ url, headers: { authorization: who } });
        assert.equal(missing.statusCode, 404, url);
      }
    });

    it("an extension's reason is the status object's processing_details; a rejection's drp_reason its reason", async () => {
      const filed = await exercise(agent.sign(claims({ email: 'max@example.com' })));
      const id = filed.json().request_id as string;
      const record = await db().selectFrom('drp_requests').selectAll().where('request_id', '=', id).executeTakeFirstOrThrow();
      const act = (action: string, payload: object) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/privacy/requests/${record.privacy_request_id}/${action}`,
          headers: { authorization: admin },
          payload,
        });
      const extended = await act('extend', { reason: 'Many systems to search' });
      assert.equal(extended.statusCode, 200, extended.body);
      const got = (await status(id)).json();
      assert.equal(got.expected_by, extended.json().extended_due_at);
      assert.equal(got.processing_details, 'Many systems to search');
      const bad = await act('reject', { reason: 'x', drp_reason: 'because' });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(bad.json().detail[0].loc, ['body', 'drp_reason']);
      const rejected = await act('reject', { reason: 'We do not sell in California', drp_reason: 'outside_jurisdiction' });
      assert.equal(rejected.statusCode, 200, rejected.body);
      const denied = (await status(id)).json();
      assert.deepEqual(
        [denied.status, denied.reason, denied.processing_details],
        ['denied', 'outside_jurisdiction', 'We do not sell in California'],
      );
    });

    it('the queue filters by agent_id, and its CSV names the agent in its last column', async () => {
      const filed = await db()
        .selectFrom('drp_requests')
        .select('privacy_request_id')
        .where('agent_id', '=', agent.agentId)
        .where('privacy_request_id', 'is not', null)
        .execute();
      const list = await t.app.inject({
        url: `/api/v1/privacy/requests?workspace_id=acme&agent_id=${agent.agentId}&limit=100`,
        headers: { authorization: admin },
      });
      assert.equal(list.statusCode, 200, list.body);
      const items = list.json().items as { id: string; agent: { id: string } }[];
      assert.deepEqual(items.map((i) => i.id).sort(), filed.map((f) => f.privacy_request_id).sort());
      assert.ok(items.every((i) => i.agent.id === agent.agentId));
      const none = await t.app.inject({
        url: '/api/v1/privacy/requests?agent_id=other-agent',
        headers: { authorization: admin },
      });
      assert.deepEqual(none.json().items, []);
      const csv = await t.app.inject({
        url: `/api/v1/privacy/requests?workspace_id=acme&agent_id=${agent.agentId}&format=csv`,
        headers: { authorization: admin },
      });
      const lines = csv.body.slice(1).trim().split('\r\n');
      assert.ok(lines[0]!.endsWith(',days_left,agent'), lines[0]);
      assert.equal(lines.length, 1 + filed.length);
      assert.ok(
        lines.slice(1).every((line) => line.endsWith(`,${agent.agentId}`)),
        csv.body,
      );
    });

    it('metrics: drp_refused_total by reason, drp_requests_total by exercise and outcome', async () => {
      const res = await t.app.inject({ url: '/metrics' });
      assert.equal(res.statusCode, 200);
      const value = (series: string) => {
        const line = res.body.split('\n').find((l) => l.startsWith(series + ' '));
        return line === undefined ? 0 : Number(line.split(' ').at(-1));
      };
      // Two exercises above, and one tampered revoke.
      assert.equal(value('drp_refused_total{reason="signature_invalid"}'), 3);
      assert.equal(value('drp_refused_total{reason="token_invalid"}'), 1);
      // One replay and one reused agent-request-id in turn; two same bodies and one reused id in flight at once.
      assert.equal(value('drp_refused_total{reason="replayed"}'), 3);
      assert.equal(value('drp_refused_total{reason="agent_request_id_reused"}'), 2);
      assert.equal(value('drp_requests_total{exercise="access:categories",outcome="denied"}'), 1);
      assert.equal(value('drp_requests_total{exercise="sale:opt-out",outcome="filed"}'), 1);
      assert.ok(value('drp_requests_total{exercise="deletion",outcome="filed"}') >= 3);
    });
  });
}
