/** Identity payload parsers (PRODUCT.md §2.6) on real Clerk and WorkOS payloads (test/fixtures/README.md). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseClerkEvent } from '../../src/webhooks/identity/parse-clerk.js';
import { parseStandardEvent } from '../../src/webhooks/identity/parse-standard.js';
import { parseWorkosEvent } from '../../src/webhooks/identity/parse-workos.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- provider fixtures are edited at any depth by the tests
type Json = Record<string, any>;
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
const clerkCreated = () => fixture('clerk-user.created.json');
const workosCreated = () => fixture('workos-dsync.user.created.json');
const CLERK_USER = 'user_29w83sxmDNGwOuEthce5gg56FcC';
const WORKOS_USER = 'directory_user_01E1X1B89NH8Z3SDFJR4H7RGX7';

describe('parseClerkEvent', () => {
  it('maps the real user.created payload: Svix message id, primary email, full name, epoch-ms timestamp', () => {
    const parsed = parseClerkEvent(clerkCreated(), 'msg_2LpYhkNHfXGaqmbHjBeJ7vJ3FzK');
    assert.deepEqual(parsed, {
      kind: 'event',
      event: {
        id: 'msg_2LpYhkNHfXGaqmbHjBeJ7vJ3FzK',
        type: 'user.created',
        occurred_at: new Date(1654012591835).toISOString(),
        data: { user_id: CLERK_USER, email: 'example@example.org', name: 'Example Example', username: null, linked_accounts: [] },
      },
    });
    assert.equal(parsed.kind === 'event' && parsed.event.occurred_at, '2022-05-31T15:56:31.835Z');
  });

  it('picks the primary address among several, not the first', () => {
    const body = clerkCreated();
    body.data.email_addresses.unshift({ email_address: 'old@example.org', id: 'idn_other', object: 'email_address' });
    const parsed = parseClerkEvent(body, 'msg_1');
    assert.equal(parsed.kind === 'event' && parsed.event.data.email, 'example@example.org');
  });

  it('maps Clerk external accounts (oauth_github) onto linked accounts with provider github', () => {
    const body = clerkCreated();
    body.type = 'user.updated';
    body.data.username = 'octo';
    body.data.external_accounts = [
      {
        object: 'external_account',
        id: 'eac_1',
        provider: 'oauth_github',
        provider_user_id: '583231',
        username: 'octocat',
        email_address: 'octocat@example.org',
      },
    ];
    const parsed = parseClerkEvent(body, 'msg_2');
    assert.equal(parsed.kind, 'event');
    if (parsed.kind !== 'event') return;
    assert.equal(parsed.event.type, 'user.updated');
    assert.equal(parsed.event.data.username, 'octo');
    assert.deepEqual(parsed.event.data.linked_accounts, [{ provider: 'github', account_id: '583231', login: 'octocat' }]);
  });

  it('maps a Clerk user.deleted body (only id and deleted flag) onto user.deleted', () => {
    const body = {
      data: { deleted: true, id: CLERK_USER, object: 'user' },
      object: 'event',
      type: 'user.deleted',
      timestamp: 1661861640000,
    };
    assert.deepEqual(parseClerkEvent(body, 'msg_3'), {
      kind: 'event',
      event: { id: 'msg_3', type: 'user.deleted', occurred_at: '2022-08-30T12:14:00.000Z', data: { user_id: CLERK_USER } },
    });
  });

  it('ignores event types it does not handle', () => {
    const body = {
      data: { id: 'sess_1', object: 'session', user_id: CLERK_USER },
      object: 'event',
      type: 'session.created',
      timestamp: 1654012591835,
    };
    const parsed = parseClerkEvent(body, 'msg_4');
    assert.equal(parsed.kind, 'ignored');
    assert.match(parsed.kind === 'ignored' ? parsed.reason : '', /session\.created/);
  });

  it('calls malformed payloads invalid', () => {
    const cases: [string, unknown, string | undefined][] = [
      ['not an object', 'user.created', 'msg_5'],
      ['no message id', clerkCreated(), undefined],
      ['no timestamp', { ...clerkCreated(), timestamp: undefined }, 'msg_5'],
      ['no user id', { ...clerkCreated(), data: { ...clerkCreated().data, id: undefined } }, 'msg_5'],
      ['data is an array', { ...clerkCreated(), data: [] }, 'msg_5'],
      ['type not a string', { ...clerkCreated(), type: 7 }, 'msg_5'],
      ['username not a string', { ...clerkCreated(), data: { ...clerkCreated().data, username: 12 } }, 'msg_5'],
    ];
    for (const [why, body, id] of cases) assert.deepEqual(parseClerkEvent(body, id), { kind: 'invalid' }, why);
  });
});

describe('parseWorkosEvent', () => {
  it('maps the real dsync.user.created payload: event id, created_at, email, name, custom username', () => {
    assert.deepEqual(parseWorkosEvent(workosCreated()), {
      kind: 'event',
      event: {
        id: 'event_07FKJ843CVE8F7BXQSPFH0M53V',
        type: 'user.created',
        occurred_at: '2021-06-25T19:07:33.155Z',
        data: { user_id: WORKOS_USER, email: 'lela.block@example.com', name: 'Lela Block', username: 'lela.block@example.com' },
      },
    });
  });

  it('maps the directory user state onto (de)activation', () => {
    const typeOf = (event: string, state: string) => {
      const body = workosCreated();
      body.event = event;
      body.data.state = state;
      const parsed = parseWorkosEvent(body);
      return parsed.kind === 'event' ? parsed.event.type : parsed.kind;
    };
    assert.equal(typeOf('dsync.user.created', 'inactive'), 'user.deactivated');
    assert.equal(typeOf('dsync.user.updated', 'inactive'), 'user.deactivated');
    assert.equal(typeOf('dsync.user.updated', 'active'), 'user.reactivated');
    assert.equal(typeOf('dsync.user.deleted', 'active'), 'user.deleted');
  });

  it('carries only the user id on dsync.user.deleted', () => {
    const body = { ...workosCreated(), event: 'dsync.user.deleted' };
    const parsed = parseWorkosEvent(body);
    assert.deepEqual(parsed.kind === 'event' && parsed.event.data, { user_id: WORKOS_USER });
  });

  it('ignores other events (dsync.group.created, connection.activated)', () => {
    assert.equal(
      parseWorkosEvent({
        ...workosCreated(),
        event: 'dsync.group.created',
        data: { id: 'directory_group_01', name: 'Engineering' },
      }).kind,
      'ignored',
    );
    assert.equal(
      parseWorkosEvent({ ...workosCreated(), event: 'connection.activated', data: { id: 'conn_01' } }).kind,
      'ignored',
    );
  });

  it('calls malformed payloads invalid', () => {
    const cases: [string, unknown][] = [
      ['null', null],
      ['no id', { ...workosCreated(), id: undefined }],
      ['no event name', { ...workosCreated(), event: undefined }],
      ['bad created_at', { ...workosCreated(), created_at: 'yesterday' }],
      ['no user id', { ...workosCreated(), data: { ...workosCreated().data, id: undefined } }],
      ['email not a string', { ...workosCreated(), data: { ...workosCreated().data, email: ['x@example.com'] } }],
    ];
    for (const [why, body] of cases) assert.deepEqual(parseWorkosEvent(body), { kind: 'invalid' }, why);
  });
});

describe('parseStandardEvent', () => {
  const body = (overrides: Json = {}, data: Json = {}) => ({
    id: 'evt_1',
    type: 'user.created',
    occurred_at: '2026-01-02T03:04:05Z',
    ...overrides,
    data: {
      user_id: 'u_1',
      email: 'ada@example.com',
      linked_accounts: [{ provider: 'github', account_id: 583231, login: 'octocat' }],
      ...data,
    },
  });

  it('accepts the canonical body, normalising the instant and numeric account ids', () => {
    assert.deepEqual(parseStandardEvent(body()), {
      kind: 'event',
      event: {
        id: 'evt_1',
        type: 'user.created',
        occurred_at: '2026-01-02T03:04:05.000Z',
        data: {
          user_id: 'u_1',
          email: 'ada@example.com',
          linked_accounts: [{ provider: 'github', account_id: '583231', login: 'octocat' }],
        },
      },
    });
  });

  it('keeps absent fields absent and null fields null', () => {
    const parsed = parseStandardEvent({
      id: 'evt_2',
      type: 'user.updated',
      occurred_at: '2026-01-02T03:04:05.120+02:00',
      data: { user_id: 'u_1', name: null },
    });
    assert.deepEqual(parsed.kind === 'event' && parsed.event, {
      id: 'evt_2',
      type: 'user.updated',
      occurred_at: '2026-01-02T01:04:05.120Z',
      data: { user_id: 'u_1', name: null },
    });
  });

  it('refuses an occurred_at without a UTC offset (RFC 3339) instead of reading it in the server time zone', () => {
    assert.deepEqual(parseStandardEvent(body({ occurred_at: '2026-01-02T03:04:05' })), { kind: 'invalid' });
  });

  it('refuses an impossible calendar date instead of rolling it over', () => {
    assert.deepEqual(parseStandardEvent(body({ occurred_at: '2026-02-30T00:00:00Z' })), { kind: 'invalid' });
  });

  it('ignores types outside the five lifecycle events', () => {
    assert.equal(parseStandardEvent(body({ type: 'user.signed_in' })).kind, 'ignored');
  });

  it('calls malformed bodies invalid', () => {
    const cases: [string, unknown][] = [
      ['undefined (not JSON)', undefined],
      ['no id', body({ id: undefined })],
      ['empty id', body({ id: '' })],
      ['epoch-seconds string', body({ occurred_at: '1614265330' })],
      ['not a date', body({ occurred_at: '2026-13-45T99:00:00Z' })],
      ['no user id', body({}, { user_id: undefined })],
      ['email not a string', body({}, { email: 42 })],
      ['linked_accounts not an array', body({}, { linked_accounts: { provider: 'github' } })],
      ['linked account without provider', body({}, { linked_accounts: [{ account_id: '1' }] })],
      ['over-long email', body({}, { email: `${'a'.repeat(501)}@x` })],
    ];
    for (const [why, payload] of cases) assert.deepEqual(parseStandardEvent(payload), { kind: 'invalid' }, why);
  });
});
