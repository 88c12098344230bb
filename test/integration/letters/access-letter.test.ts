/**
 * Readable results (PRODUCT.md §2.11, §2.3 "Results"): the access/export package as an HTML
 * letter (escaped, valid, self-contained), the statements the JSON package gains (controller,
 * rights, automated decision-making), packages stored before them, and the deletion report
 * naming its request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LETTER_CSP } from '../../../src/http/letters/letter-style.js';
import { saveResultJson } from '../../../src/modules/privacy-requests/lifecycle/request-state.repository.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import {
  answeredRequest,
  assertValidHtml,
  FULL_PROFILE,
  type LetterWorld,
  MARKUP_NAME,
  putProfile,
  seedLetterWorld,
} from '../../helpers/letters.js';
import { fileRequest, runHandler } from '../../helpers/subject-data.js';

/** Every place `<script` occurs in `html`, case-insensitively. */
const scriptTags = (html: string) => html.match(/<script/gi) ?? [];

/** The letter as the person reads it: text without markup, entities decoded, spaces collapsed. */
const letterText = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');

/** Words of the service's machinery a person should never meet in a letter (PRODUCT §2.13). */
const ENGINEERING = ['privacy:read', 'webhook', 'workspace', 'data subject', 'identity provider', 'user.account', 'scope'];

/** Rights of each regulation, as the letter's text names them. */
const GDPR_RIGHTS = [
  'GDPR Art. 15',
  'GDPR Art. 16',
  'GDPR Art. 17',
  'GDPR Art. 18',
  'GDPR Art. 20',
  'GDPR Art. 21',
  'GDPR Art. 77',
];
const CCPA_RIGHTS = [
  'Right to know (Cal. Civ. Code §1798.110)',
  'Right to delete (Cal. Civ. Code §1798.105)',
  'Right to correct (Cal. Civ. Code §1798.106)',
  'Right to opt out of sale or sharing (Cal. Civ. Code §1798.120)',
  'Right to limit use of sensitive personal information (Cal. Civ. Code §1798.121)',
  'No retaliation (Cal. Civ. Code §1798.125)',
  'California Privacy Protection Agency',
];

for (const dialect of dialects()) {
  describe(`readable letters (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let admin: string;
    let reader: string;
    let world: LetterWorld;
    let bare: LetterWorld;
    const get = (path: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/api/v1/privacy/requests/${path}`, headers: { authorization: reader, ...headers } });

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      admin = await t.bearer(['admin'], ['acme', 'bare', 'calif', 'dual']);
      reader = await t.bearer(['privacy:read'], ['acme', 'bare', 'calif', 'dual']);
      world = await seedLetterWorld(t, 'acme');
      bare = await seedLetterWorld(t, 'bare', { controller: false });
      await putProfile(t, admin, 'acme', FULL_PROFILE);
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('renders the access answer as a valid, self-contained letter with the subject data escaped', async () => {
      const id = await answeredRequest(t, admin, world);
      const res = await get(`${id}/package?format=html`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(res.headers['content-security-policy'], LETTER_CSP);
      assert.equal(res.headers.vary, 'Accept');
      const html = res.body;
      // The name is markup: it appears only as escaped text, and no script element exists.
      assert.deepEqual(scriptTags(html), []);
      assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.ok(!html.includes(MARKUP_NAME));
      assert.ok(html.includes('Fix &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; titles'));
      // Self-contained: nothing to load (no src, no stylesheet link, no CSS import or url()).
      assert.doesNotMatch(html, /\ssrc=|<link|@import|url\(|<iframe|<object|<embed|<img/i);
      await assertValidHtml(html);

      for (const text of [
        'Your personal data held by Acme Software GmbH',
        'Who answers for your data',
        'privacy@acme.example',
        'Dr. Jane Roe, dpo@acme.example',
        'What you asked for',
        'right of access, GDPR Art. 15',
        'Your e-mail address',
        'Your name',
        'Your accounts and usernames',
        'Pull and merge requests you authored',
        world.email,
        world.login,
        'Why we hold it',
        'Who receives it',
        'How long we keep it',
        'Where it came from',
        'Your rights',
        'GDPR Art. 16',
        'GDPR Art. 17',
        'GDPR Art. 18',
        'GDPR Art. 21',
        'GDPR Art. 77',
        'we do not build a profile of you (GDPR Art. 22)',
      ])
        assert.ok(html.includes(text), `the letter lacks "${text}"`);
      assert.ok(html.includes('<a href="https://www.datenschutz-berlin.de/">Berlin Commissioner for Data Protection</a>'));
      assert.ok(!html.includes('Other systems that answered'), 'no system answered, so no such section');
    });

    it('speaks to the person in plain words and lists the rights of the regulations that apply (PRODUCT §2.13)', async () => {
      const cases: { workspace: string; regulations: ('gdpr' | 'ccpa')[] | null; has: string[]; lacks: string[] }[] = [
        { workspace: 'acme', regulations: null, has: GDPR_RIGHTS, lacks: CCPA_RIGHTS },
        { workspace: 'calif', regulations: ['ccpa'], has: CCPA_RIGHTS, lacks: [...GDPR_RIGHTS, 'GDPR', 'supervisory authority'] },
        {
          workspace: 'dual',
          regulations: ['gdpr', 'ccpa'],
          has: [
            ...GDPR_RIGHTS,
            ...CCPA_RIGHTS,
            'Under the EU General Data Protection Regulation',
            'Under the California Consumer Privacy Act',
          ],
          lacks: [],
        },
      ];
      for (const c of cases) {
        const w = c.workspace === 'acme' ? world : await seedLetterWorld(t, c.workspace);
        // After the seed, whose layer sets author_identity: a layer replaces the one before.
        if (c.regulations)
          await t.services.policies.putLayer(c.workspace, null, { author_identity: 'full', regulations: c.regulations }, 'test');
        const id = await answeredRequest(t, admin, w);
        const res = await get(`${id}/package?format=html`);
        assert.equal(res.statusCode, 200, res.body);
        const text = letterText(res.body);
        for (const phrase of c.has) assert.ok(text.includes(phrase), `${c.workspace}: the letter lacks "${phrase}"`);
        for (const phrase of c.lacks) assert.ok(!text.includes(phrase), `${c.workspace}: the letter names "${phrase}"`);
        for (const word of ENGINEERING)
          assert.ok(!text.toLowerCase().includes(word), `${c.workspace}: the letter says "${word}"`);
        assert.match(text, /You can ask/, 'the letter addresses the person');
        await assertValidHtml(res.body);
        const rights = (await get(`${id}/package`)).json().rights as { regulation: string }[];
        assert.deepEqual([...new Set(rights.map((r) => r.regulation))], c.regulations ?? ['gdpr']);
      }
    });

    it('answers HTML to an Accept that prefers it and JSON by default, and refuses an unknown format', async () => {
      const id = await answeredRequest(t, admin, world);
      const browser = await get(`${id}/package`, { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
      assert.match(String(browser.headers['content-type']), /^text\/html/);
      for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5']) {
        const res = await get(`${id}/package`, accept ? { accept } : {});
        assert.match(String(res.headers['content-type']), /^application\/json/, String(accept));
      }
      const forced = await get(`${id}/package?format=json`, { accept: 'text/html' });
      assert.match(String(forced.headers['content-type']), /^application\/json/);
      const bad = await get(`${id}/package?format=pdf`);
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(bad.json().detail[0].loc, ['query', 'format']);
    });

    it('gives the JSON package the controller, the rights and "no automated decision-making"', async () => {
      const id = await answeredRequest(t, admin, world);
      const pkg = (await get(`${id}/package`)).json();
      assert.deepEqual(pkg.controller, FULL_PROFILE);
      assert.deepEqual(
        pkg.rights.map((r: { right: string }) => r.right),
        ['access', 'rectification', 'erasure', 'restriction', 'portability', 'objection', 'complaint'],
      );
      assert.match(
        pkg.rights.at(-1).statement,
        /Berlin Commissioner for Data Protection \(https:\/\/www\.datenschutz-berlin\.de\/\)/,
      );
      assert.equal(pkg.automated_decision_making.applies, false);
      // Built in: the stored package holds them, so a later profile change does not rewrite the answer given.
      const stored = await t.services.database.db
        .selectFrom('request_results')
        .select('package')
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(stored.package ?? '{}').controller, FULL_PROFILE);
    });

    it('gives no letter naming nobody: without a controller the request waits, and runs on once one is named (PRODUCT §2.13)', async () => {
      const id = await fileRequest(t, admin, {
        request_type: 'access',
        scope: ['user'],
        subject_provider: bare.sources.idp,
        subject_id: bare.userId,
        workspace_id: 'bare',
      });
      const waiting = await runHandler(t, id, { record: true });
      assert.deepEqual(waiting, { status: 'action_required', reason: 'controller_unnamed', beforeWork: true });
      assert.equal((await get(`${id}/package?format=html`)).statusCode, 409, 'no letter without a controller');
      await putProfile(t, admin, 'bare', { name: 'Bare Ltd', contact_email: 'privacy@bare.example' });
      const row = await t.services.database.db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.status_reason], ['queued', null], 'runs on once the profile is saved');
      assert.equal((await runHandler(t, id, { record: true })).status, 'completed');
      const res = await get(`${id}/package?format=html`);
      assert.equal(res.statusCode, 200);
      assert.ok(res.body.includes('Bare Ltd'));
      assert.ok(!res.body.includes('has not named its controller'));
      assert.equal((await get(`${id}/package`)).json().controller.name, 'Bare Ltd');
      await assertValidHtml(res.body);
    });

    it('serves a package stored before the statements existed with them, from the profile as it is now', async () => {
      const id = await answeredRequest(t, admin, world);
      const row = await t.services.database.db
        .selectFrom('request_results')
        .select('package')
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
      const old = JSON.parse(row.package ?? '{}');
      for (const key of ['controller', 'rights', 'automated_decision_making']) delete old[key];
      await saveResultJson(t.services.database.db, id, { pkg: JSON.stringify(old), report: null }, new Date().toISOString());
      const pkg = (await get(`${id}/package`)).json();
      assert.deepEqual(pkg.controller, FULL_PROFILE);
      assert.equal(pkg.rights.length, 7);
      assert.equal(pkg.automated_decision_making.applies, false);
      assert.deepEqual(pkg.data, old.data);
      const html = (await get(`${id}/package?format=html`)).body;
      assert.ok(html.includes('Acme Software GmbH'));
    });

    it('renders the parts of other systems when the package has them', async () => {
      const id = await answeredRequest(t, admin, world);
      const row = await t.services.database.db
        .selectFrom('request_results')
        .select('package')
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
      const pkg = JSON.parse(row.package ?? '{}');
      pkg.systems = {
        'ci-logs': { name: 'CI logs', data: { 'user.account': { builds: [{ id: 'b-1', note: '<img src=x>' }] } } },
        helpdesk: { tickets: 2 },
        'support-desk': { tickets: 5 },
      };
      // A registered data system is named as registered (the package holds its data by key).
      const system = await t.services.dataSystems.create(
        {
          workspace_id: world.sources.workspace,
          key: 'support-desk',
          name: 'Support <desk>',
          categories: ['user'],
          request_types: ['access'],
        },
        'test',
      );
      assert.equal(system.key, 'support-desk');
      await saveResultJson(t.services.database.db, id, { pkg: JSON.stringify(pkg), report: null }, new Date().toISOString());
      const html = (await get(`${id}/package?format=html`)).body;
      assert.ok(html.includes('Other systems that answered'));
      assert.ok(html.includes('CI logs (ci-logs)') && html.includes('helpdesk'));
      assert.ok(html.includes('Support &lt;desk&gt; (support-desk)'), 'the registered name, escaped');
      assert.ok(html.includes('&lt;img src=x&gt;') && !html.includes('<img'));
      await assertValidHtml(html);
    });

    it('renders an export answer without processing statements, still with the rights', async () => {
      const id = await answeredRequest(t, admin, world, 'export');
      const res = await get(`${id}/package?format=html`);
      assert.equal(res.statusCode, 200);
      assert.ok(res.body.includes('right to data portability, GDPR Art. 20'));
      assert.ok(!res.body.includes('Why we hold it'));
      assert.ok(res.body.includes('Your rights'));
      await assertValidHtml(res.body);
    });

    it('names the deletion report request, workspace, subject and time, and what it did not touch', async () => {
      const id = await answeredRequest(t, admin, world, 'deletion');
      const res = await get(`${id}/report`);
      assert.equal(res.statusCode, 200, res.body);
      const report = res.json();
      const row = await t.services.database.db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [
          report.format,
          report.request_id,
          report.request_type,
          report.workspace_id,
          report.subject,
          report.received_at,
          report.completed_at,
        ],
        ['erasure-report/1', id, 'deletion', 'acme', { provider: 'okta', id: world.userId }, row.created_at, row.completed_at],
      );
      assert.ok(report.completed_at);
      assert.equal(report.not_touched.length, 3);
      assert.match(report.not_touched[0], /code hosts themselves/);
      assert.match(report.not_touched[1], /identity provider itself/);
      assert.ok(report.categories['user.account']);
      // The report holds no personal data beyond the identifier the request was filed with.
      for (const value of [world.email, world.login, MARKUP_NAME]) assert.ok(!res.body.includes(value), value);
    });

    it('does not serve a letter across workspaces', async () => {
      const id = await answeredRequest(t, admin, world);
      const outsider = await t.bearer(['privacy:read'], ['globex']);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/privacy/requests/${id}/package?format=html`,
        headers: { authorization: outsider },
      });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { detail: 'Privacy request not found' });
    });
  });
}
