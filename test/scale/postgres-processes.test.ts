/**
 * Scale-out on PostgreSQL (issue #5, item 3): 3 `privacyctl serve` and 2 `privacyctl worker`
 * processes on one schema, driven over real HTTP. Concurrent duplicate creates and webhook
 * redeliveries across the servers leave exactly one record each; every request is processed
 * exactly once, also when a worker is killed with SIGKILL in the middle of one; `privacyctl
 * audit verify` passes at the end.
 *
 * Short by default (a few dozen requests). By hand: `SCALE_REQUESTS=2000` (distinct creates),
 * `SCALE_DUPLICATES` (duplicate groups per kind), `SCALE_DELIVERIES` (deliveries per provider).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, type Database } from '../../src/db/database.js';
import {
  type HttpAnswer,
  type Proc,
  type Server,
  call,
  killAll,
  startServer,
  startWorkerProcess,
  stop,
  waitFor,
} from '../helpers/cluster.js';
import { type TestDatabase, postgresDatabase } from '../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl, words } from '../helpers/privacyctl.js';
import {
  type Delivery,
  SCALE_INTEGRATIONS,
  createDelivery,
  githubDelivery,
  gitlabDelivery,
  identityDelivery,
  inParallel,
  REQUEST_TYPES,
  send,
} from '../helpers/scale-traffic.js';
import { killMidRequest } from '../helpers/worker-kill.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const count = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DISTINCT = count('SCALE_REQUESTS', 24);
const DUPLICATES = count('SCALE_DUPLICATES', 4);
const DELIVERIES = count('SCALE_DELIVERIES', 4);
/** Copies of each duplicate sent at once: two per server. */
const COPIES = 6;
const LONG = { timeout: 120_000 + DISTINCT * 300 };

const skip = PG_URL ? false : 'TEST_DATABASE_URL is not set: the scale-out test needs PostgreSQL (mandatory under CI=true)';

describe('3 serve + 2 worker processes on one PostgreSQL schema', { skip }, () => {
  let cli: BuiltCli;
  let database: TestDatabase;
  let db: Database;
  let servers: Server[] = [];
  const workers: Proc[] = [];
  let auth = '';
  let env: Record<string, string> = {};

  const server = (i: number) => servers[i % servers.length]!.url;
  const startWorker = async () => workers.push(await startWorkerProcess(cli.bin, env));
  const json = (a: HttpAnswer) => JSON.parse(a.body) as Record<string, unknown>;
  const rowsWith = async (clientRequestId: string) =>
    (await db.db.selectFrom('privacy_requests').select('id').where('client_request_id', '=', clientRequestId).execute()).map(
      (r) => r.id,
    );
  const copies = (d: Delivery) => Promise.all(Array.from({ length: COPIES }, (_, i) => send(server(i), d)));

  before(async () => {
    if (!PG_URL) return;
    database = await postgresDatabase(PG_URL);
    cli = buildPrivacyctl();
    env = { DATABASE_URL: database.url, WORKER_IN_SERVER: 'false', WORKER_POLL_MS: '20', WORKER_LEASE_MS: '2000' };
    // All three start at once on the empty schema: each runs the migrations (one wins the lock).
    servers = await Promise.all([0, 1, 2].map(() => startServer(cli.bin, env)));
    db = createDatabase(database.url);
    const token = cli.run({ DATABASE_URL: database.url }, words('token create --workspace acme --scope admin --name scale'));
    assert.equal(token.status, 0, token.stderr);
    auth = `Bearer ${token.stdout.trim()}`;
    for (const integration of SCALE_INTEGRATIONS) {
      const res = await call(server(0), 'POST', '/api/v1/integrations', { authorization: auth }, integration);
      assert.equal(res.status, 201, res.body);
    }
    // The subjects are unknown on purpose (the test is about filing and processing across
    // processes): a named controller and no review of unmatched identities (PRODUCT §2.13) let
    // every request complete.
    const controller = { name: 'Acme GmbH', contact_email: 'privacy@acme.example' };
    const named = await call(server(0), 'PUT', '/api/v1/workspaces/acme/controller', { authorization: auth }, controller);
    assert.equal(named.status, 200, named.body);
    const policy = { confirm_no_data: false };
    const set = await call(server(0), 'PUT', '/api/v1/policies/workspaces/acme', { authorization: auth }, policy);
    assert.equal(set.status, 200, set.body);
    await Promise.all([startWorker(), startWorker()]);
  });

  after(async () => {
    await killAll();
    await db?.close();
    await database?.drop();
    cli?.remove();
  });

  it('the same Idempotency-Key and body on every server at once files one request', LONG, async () => {
    for (let g = 0; g < DUPLICATES; g++) {
      // Never a deletion: once the workers complete one, its erasure deletes the key's record (it
      // names the subject; docs/decisions.md), and a copy sent after that files anew (a 409 for
      // the taken client_request_id), which is right but not what the replays below check.
      const create = createDelivery(auth, 'same-key', g, REQUEST_TYPES[g % (REQUEST_TYPES.length - 1)]);
      const answers = await copies(create);
      const statuses = answers.map((a) => a.status).sort();
      assert.ok(
        statuses.every((s) => s === 202 || s === 409),
        `statuses ${statuses.join(',')}`,
      );
      const first = answers.filter((a) => a.status === 202 && a.headers['idempotent-replayed'] === undefined);
      assert.equal(first.length, 1, 'exactly one answer is the original');
      const id = json(first[0]!).id;
      for (const a of answers.filter((x) => x.status === 202)) assert.equal(json(a).id, id);
      for (const a of answers.filter((x) => x.status === 409)) assert.match(json(a).detail as string, /still being processed/);
      // Once the first has finished, every server replays it.
      for (const replay of await copies(create)) {
        assert.equal(replay.status, 202, replay.body);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        assert.equal(json(replay).id, id);
      }
      assert.deepEqual(await rowsWith(`scale-same-key-${g}`), [id]);
    }
  });

  it('other keys with the same client_request_id: one request, every other answer 409 with its Location', LONG, async () => {
    for (let g = 0; g < DUPLICATES; g++) {
      const base = createDelivery(auth, 'same-client-id', g);
      const answers = await Promise.all(
        Array.from({ length: COPIES }, (_, i) =>
          send(server(i), { ...base, headers: { ...base.headers, 'idempotency-key': `scale-other-key-${g}-${i}` } }),
        ),
      );
      const created = answers.filter((a) => a.status === 202);
      assert.equal(created.length, 1, `statuses ${answers.map((a) => a.status).join(',')}`);
      const location = created[0]!.headers.location;
      assert.equal(location, `/api/v1/privacy/requests/${json(created[0]!).id as string}`);
      for (const a of answers.filter((x) => x.status !== 202)) {
        assert.equal(a.status, 409, a.body);
        assert.equal(a.headers.location, location);
      }
      assert.deepEqual(await rowsWith(`scale-same-client-id-${g}`), [json(created[0]!).id]);
    }
  });

  it(`${DISTINCT} distinct requests of all four types, spread over the servers, are each filed once`, LONG, async () => {
    const answers = await inParallel(DISTINCT, 12, (i) => send(server(i), createDelivery(auth, 'distinct', i)));
    for (const a of answers) assert.equal(a.status, 202, a.body);
    const ids = new Set(answers.map((a) => json(a).id));
    assert.equal(ids.size, DISTINCT);
    const stored = await db.db
      .selectFrom('privacy_requests')
      .select('id')
      .where('client_request_id', 'like', 'scale-distinct-%')
      .execute();
    assert.deepEqual(new Set(stored.map((r) => r.id)), ids);
  });

  it('webhook redeliveries to every server at once are recorded once each', LONG, async () => {
    const deliveries = Array.from({ length: DELIVERIES }, (_, i) => [
      githubDelivery(9000 + i),
      gitlabDelivery(9000 + i),
      identityDelivery(`scale-user-${i}`),
    ]).flat();
    const answered = await Promise.all(deliveries.map(copies));
    for (const answers of answered) {
      for (const a of answers) assert.equal(a.status, 200, a.body);
      const bodies = answers.map(json);
      assert.equal(bodies.filter((b) => b.status === 'accepted').length, 1, JSON.stringify(bodies));
      assert.ok(
        bodies.every((b) => b.status === 'accepted' || b.status === 'duplicate'),
        JSON.stringify(bodies),
      );
      assert.equal(new Set(bodies.map((b) => b.event_id)).size, 1, 'every copy names the same event');
    }
    const events = await db.db.selectFrom('change_events').select(['provider', 'number']).execute();
    assert.equal(events.length, 2 * DELIVERIES, 'one change event per GitHub/GitLab delivery');
    const expected = Array.from({ length: DELIVERIES }, (_, i) => [`github:${9000 + i}`, `gitlab:${9000 + i}`]).flat();
    assert.deepEqual(new Set(events.map((e) => `${e.provider}:${e.number}`)), new Set(expected));
    const identity = await db.db.selectFrom('identity_events').select('event_id').execute();
    assert.equal(identity.length, DELIVERIES, 'one applied identity event per delivery');
    const recorded = new Set(identity.map((e) => e.event_id));
    for (const d of deliveries.filter((x) => x.path === '/webhook/identity')) assert.ok(recorded.has(d.headers['webhook-id']!));
  });

  it('kill -9 of a worker mid-request: the request still completes, once', LONG, async () => {
    let filed = 0;
    const refill = async () => {
      const waiting = await db.db.selectFrom('privacy_requests').select('id').where('status', '=', 'queued').limit(4).execute();
      if (waiting.length >= 4) return;
      await inParallel(8, 8, () => send(server(filed), createDelivery(auth, 'kill', filed++)));
    };
    await refill();
    let victim: string | null = null;
    for (let round = 0; round < 5 && victim === null; round++) {
      const target = workers.findLast((w) => w.child.exitCode === null && w.child.signalCode === null)!;
      victim = await killMidRequest(db, target, refill);
      if (target.child.signalCode === 'SIGKILL') await startWorker(); // a replacement keeps two workers running
    }
    assert.ok(victim, 'never caught a worker holding an unfinished request');
    await waitFor('the victim to complete', async () => {
      const row = await db.db.selectFrom('privacy_requests').select('status').where('id', '=', victim!).executeTakeFirstOrThrow();
      return row.status === 'completed';
    });
    const row = await db.db.selectFrom('privacy_requests').select('attempts').where('id', '=', victim).executeTakeFirstOrThrow();
    assert.ok(row.attempts >= 2, 'the killed attempt counted, then another worker took the request over');
    const completions = await db.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'privacy_request.completed')
      .where('target_id', '=', victim)
      .execute();
    assert.equal(completions.length, 1);
    assert.ok((JSON.parse(completions[0]!.details) as { attempt: number }).attempt >= 2);
  });

  it('every request reaches a final state and is completed exactly once', LONG, async () => {
    const unfinished = () =>
      db.db
        .selectFrom('privacy_requests')
        .select('id')
        .where('status', 'in', ['queued', 'processing', 'pending_approval'])
        .execute();
    await waitFor('every request to finish', async () => (await unfinished()).length === 0, LONG.timeout - 10_000);
    const requests = await db.db.selectFrom('privacy_requests').select(['id', 'status']).execute();
    assert.ok(requests.length >= 2 * DUPLICATES + DISTINCT);
    assert.deepEqual(
      requests.filter((r) => r.status !== 'completed'),
      [],
      'every request type completes for a subject the service holds nothing about',
    );
    const audited = async (action: string) =>
      (await db.db.selectFrom('audit_events').select('target_id').where('action', '=', action).execute())
        .map((e) => e.target_id)
        .sort();
    const ids = requests.map((r) => r.id).sort();
    assert.deepEqual(await audited('privacy_request.completed'), ids, 'one completion entry per request');
    assert.deepEqual(await audited('privacy_request.created'), ids, 'one creation entry per request');
    assert.deepEqual(await audited('privacy_request.failed'), []);
  });

  it('every process stops cleanly on SIGTERM and `privacyctl audit verify` passes', LONG, async () => {
    const codes = await Promise.all([...workers, ...servers].map((p) => stop(p)));
    const killed = workers.filter((w) => w.child.signalCode === 'SIGKILL').length;
    assert.deepEqual(codes.filter((c) => c !== 0).length, killed, `exit codes ${codes.join(',')}`);
    const { n } = await db.db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const verify = cli.run({ DATABASE_URL: database.url }, ['audit', 'verify']);
    assert.equal(verify.status, 0, verify.stderr);
    assert.equal(verify.stdout.trim(), `audit chain intact: ${Number(n)} entries`);
  });
});
