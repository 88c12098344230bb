/**
 * Separation of duties (issue 11, item 10; docs/decisions.md): the principal that filed a request
 * cannot approve it. Requests filed before `privacy_requests.filed_by` existed get their filer from
 * their `privacy_request.created` audit entry (migration 2026-11-23T0002-request-filer), so the rule
 * holds for them too; one without that entry has no known filer and can be approved by anyone.
 * The filer is whoever filed it: an API token, an OIDC subject, or an identity integration.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { createDatabase } from '../../../src/db/database.js';
import type { DB } from '../../../src/db/schema.js';
import { newId } from '../../../src/lib/ids.js';
import { linkEntries } from '../../../src/modules/audit/audit-chain.fns.js';
import { generateToken, hashToken } from '../../../src/modules/tokens/token.fns.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { migrateBefore } from '../../helpers/migrate-before.js';
import { createBody } from '../../helpers/requests.js';

const FILER_MIGRATION = '2026-11-23T0002-request-filer';
const CREATED_AT = '2026-11-01T09:00:00.000Z';

/** An API token as the previous release stored it (privacy:write and read in `approvals`). @returns its id and secret. */
async function tokenAsPreviousRelease(db: Kysely<DB>, name: string): Promise<{ id: string; token: string }> {
  const token = generateToken();
  const id = newId('tok');
  await db
    .insertInto('api_tokens')
    .values({
      id,
      name,
      token_hash: hashToken(token),
      scopes: JSON.stringify(['privacy:write', 'privacy:read']),
      workspaces: JSON.stringify(['approvals']),
      created_at: CREATED_AT,
      revoked_at: null,
    })
    .execute();
  return { id, token };
}

/** Runs every migration before the one that adds `filed_by`: the schema of the previous release. */
async function migrateToPreviousRelease(db: Kysely<DB>): Promise<void> {
  await migrateBefore(db, FILER_MIGRATION);
}

/** A request row as the previous release wrote it (no `filed_by`). */
function oldRow(id: string, clientRequestId: string) {
  return {
    id,
    workspace_id: 'approvals',
    request_type: 'access',
    scope: '["user"]',
    subject_provider: 'github',
    subject_id: '583231',
    client_request_id: clientRequestId,
    intake_ref: 'https://support.example.com/tickets/1',
    regulation: 'gdpr',
    status: 'pending_approval',
    status_reason: null,
    created_at: CREATED_AT,
    due_at: '2026-12-01T09:00:00.000Z',
    extended_due_at: null,
    completed_at: null,
    updated_at: CREATED_AT,
    attempts: 0,
    lease_owner: null,
    lease_expires_at: null,
    next_attempt_at: null,
  };
}

for (const dialect of dialects()) {
  describe(`separation of duties (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let filer: { id: string; token: string };
    let other: { id: string; token: string };
    const OLD_KNOWN = 'pr_01JB0000000000000000000001';
    const OLD_UNKNOWN = 'pr_01JB0000000000000000000002';

    before(async () => {
      database = await dialect.create();
      // The previous release: two tokens, two pending requests, one of them with its audit entry.
      // Rows are written as that release wrote them (today's services write columns it lacks).
      const old = createDatabase(database.url);
      try {
        await migrateToPreviousRelease(old.db);
        filer = await tokenAsPreviousRelease(old.db, 'filer');
        other = await tokenAsPreviousRelease(old.db, 'other');
        await old.db.transaction().execute(async (tx) => {
          // The previous release's table: today's columns (received_at, …) do not exist yet.
          await (tx as unknown as Kysely<Record<string, Record<string, unknown>>>)
            .insertInto('privacy_requests')
            .values([oldRow(OLD_KNOWN, 'old-1'), oldRow(OLD_UNKNOWN, 'old-2')])
            .execute();
          const head = await tx.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
          const { linked, head: next } = linkEntries(head, [
            {
              actor: `token:${filer.id}`,
              action: 'privacy_request.created',
              target_type: 'privacy_request',
              target_id: OLD_KNOWN,
              workspace_id: 'approvals',
              details: JSON.stringify({ request_type: 'access', status: 'pending_approval' }),
              occurred_at: CREATED_AT,
            },
          ]);
          await tx
            .insertInto('audit_events')
            .values(linked.map((row) => ({ id: newId('aud'), ...row })))
            .execute();
          await tx.updateTable('audit_head').set(next).where('id', '=', 1).execute();
        });
      } finally {
        await old.close();
      }
      // This release: migrates on start.
      t = await startTestApp(database);
      await t.services.policies.putLayer('approvals', null, { require_approval: true }, 'test');
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const approve = (id: string, token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${id}/approve`,
        headers: { authorization: `Bearer ${token}` },
      });
    const filedBy = async (id: string) =>
      (
        await t.services.database.db
          .selectFrom('privacy_requests')
          .select('filed_by')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).filed_by;

    it('the migration fills filed_by from the created audit entry, and leaves it NULL without one', async () => {
      assert.equal(await filedBy(OLD_KNOWN), `token:${filer.id}`);
      assert.equal(await filedBy(OLD_UNKNOWN), null);
    });

    it('a request filed before: its filer gets 403 and nothing changes; another principal approves it', async () => {
      const refused = await approve(OLD_KNOWN, filer.token);
      assert.equal(refused.statusCode, 403);
      assert.deepEqual(refused.json(), {
        detail: 'The principal that filed this request cannot approve it; another principal must approve it',
      });
      const row = await t.services.privacyRequests.get(OLD_KNOWN);
      assert.deepEqual([row?.status, row?.created_at], ['pending_approval', CREATED_AT]);
      const approved = await approve(OLD_KNOWN, other.token);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.json().status, 'queued');
    });

    it('a request filed before with no known filer can be approved by any principal with privacy:write', async () => {
      const approved = await approve(OLD_UNKNOWN, filer.token);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.json().status, 'queued');
    });

    it('a request filed now records its filer; the filer gets 403, the other token approves', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: `Bearer ${other.token}`, 'idempotency-key': 'separation-new-1' },
        payload: createBody({ workspace_id: 'approvals', client_request_id: 'separation-new-1' }),
      });
      assert.equal(res.statusCode, 202, res.body);
      const { id } = res.json();
      assert.equal(await filedBy(id), `token:${other.id}`);
      assert.equal((await approve(id, other.token)).statusCode, 403);
      assert.equal((await t.services.privacyRequests.get(id))?.status, 'pending_approval');
      assert.equal((await approve(id, filer.token)).statusCode, 200);
    });
  });
}
