/**
 * The officer's whole day in the console (PRODUCT §2.21, issue 35), in Chromium on a real store:
 * the counts on top are links to the filters that list what they count; a request by e-mail is
 * found in any case; a bulk extension is previewed (each request's new due date, or why it will
 * be refused) before it is confirmed, and its results show the due dates; an identity review
 * re-points one request and confirms no data for another (the sentence the person gets shown
 * first, from the service); a request waiting in `action_required` is rejected with the reason
 * the person is mailed (GDPR Art. 12(4)); an http(s) intake reference is a safe link; the
 * controller profile and the privacy center are set in Workspace settings (a field's error at
 * the field), the center's public page linked; the report opens on the current year, the audit
 * list says its order; a privacy:read token sees no 403 under Connections and no form in the
 * settings. Every view: no serious axe-core violation and no sideways scroll at 1280 and 390 px
 * (screenshots in .scratch/console/).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createWorker } from '../../../src/jobs/worker.js';
import { REQUEST_HANDLERS } from '../../../src/workflows/request-types/request-handlers.js';
import type { MailPayload } from '../../../src/modules/privacy-center/mail-outbox.repository.js';
import { renderMail } from '../../../src/modules/privacy-center/mail-render.fns.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openChromium } from '../../helpers/chromium.js';
import { builtConsole } from '../../helpers/console-build.js';
import { CONSOLE_SCRATCH, checkBothWidths, screenshot, signIn } from '../../helpers/console-pages.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { fixtureDrpAgent, TIMES } from '../../helpers/drp-agent.js';
import { joinDrpNetwork } from '../../helpers/drp-business.js';
import { silentLog } from '../../helpers/worker.js';

const DAY_MS = 86_400_000;

for (const dialect of dialects()) {
  describe(`console: the officer's whole day (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let origin: string;
    let officer: string;
    let intake: string;
    let reader: string;
    let browser: Browser;
    let page: Page;
    const ids: Record<'repoint' | 'noData' | 'reject' | 'late' | 'soon' | 'maria', string> = {
      repoint: '',
      noData: '',
      reject: '',
      late: '',
      soon: '',
      maria: '',
    };
    let serial = 0;
    const file = async (fields: Record<string, unknown>) => {
      serial += 1;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: intake, 'idempotency-key': `whole-day-${serial}-key` },
        payload: {
          request_type: 'deletion',
          scope: ['user'],
          subject_provider: 'github',
          workspace_id: 'acme',
          client_request_id: `whole-day-${serial}`,
          intake_ref: 'ticket',
          ...fields,
        },
      });
      assert.equal(res.statusCode, 202, res.body);
      return res.json().id as string;
    };
    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: { authorization: intake } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    /** Runs the service's worker with its own handlers until nothing queued is left. */
    const processQueued = async () => {
      const worker = createWorker({
        database: t.services.database,
        clock: t.services.clock,
        log: silentLog,
        pseudonymKey: t.services.keys.pseudonymKey,
        handlers: REQUEST_HANDLERS,
        options: { pollMs: 10, leaseMs: 60_000, maxAttempts: 3 },
      });
      while (await worker.runOnce());
    };
    const rowIds = async () => (await page.locator('table.queue tbody td[data-label="Request"]').allInnerTexts()).sort();
    /**
     * Waits (up to 30 s, Playwright's own default for an action: CI runs four such files on two
     * cores) until the queue lists exactly `expected`: a count's link reloads the list.
     */
    const waitForRows = async (expected: string[]) => {
      const want = [...expected].sort();
      for (let i = 0; i < 300 && JSON.stringify(await rowIds()) !== JSON.stringify(want); i++) await page.waitForTimeout(100);
      assert.deepEqual(await rowIds(), want);
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { consoleDir: await builtConsole() });
      officer = (
        await t.services.tokens.create({ name: 'Ann Officer', scopes: ['admin'], workspaces: ['acme', 'beta'], actor: 'test' })
      ).token;
      intake = await t.bearer(['privacy:write', 'privacy:read'], ['acme', 'beta']);
      reader = (
        await t.services.tokens.create({ name: 'auditor', scopes: ['privacy:read'], workspaces: ['acme', 'beta'], actor: 'test' })
      ).token;
      // acme names its controller (its access requests may run); beta has neither profile nor center.
      await t.services.controllers.put('acme', { name: 'Acme Ltd', contact_email: 'privacy@acme.example' }, 'test');
      // Nothing holds these subjects: after the worker they wait for an identity review (PRODUCT §2.13).
      ids.repoint = await file({ subject_id: 'ghost-typo' });
      ids.noData = await file({ request_type: 'access', subject_id: 'ghost-none' });
      ids.reject = await file({ subject_id: 'ghost-reject', notify_email: 'ghost@example.org' });
      await processQueued();
      for (const id of [ids.repoint, ids.noData, ids.reject])
        assert.equal((await get(`/api/v1/privacy/requests/${id}`)).status_reason, 'identity_unmatched');
      // Queued (no worker runs again): received 40 days ago (overdue), 27 days ago (due within 7 days), today by e-mail.
      ids.late = await file({ subject_id: 'late-1', received_at: new Date(Date.now() - 40 * DAY_MS).toISOString() });
      ids.soon = await file({
        subject_id: 'soon-1',
        intake_ref: 'javascript:alert(1)',
        received_at: new Date(Date.now() - 27 * DAY_MS).toISOString(),
      });
      ids.maria = await file({
        request_type: 'access',
        subject_provider: 'email',
        subject_id: 'Maria.Lopez@Example.org',
        intake_ref: 'https://support.example.com/tickets/77',
      });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      browser = await openChromium();
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await database?.drop();
    });

    it('names a token that can read the queue on the sign-in page', async () => {
      await page.goto(`${origin}/console/`);
      const hint = await page.locator('#token-hint').innerText();
      assert.match(hint, /privacyctl token create --workspace W --scope privacy:read --scope privacy:write/);
      await signIn(page, origin, officer);
    });

    it('makes each count a link to the filter that lists exactly what it counts', async () => {
      const counts = page.getByRole('region', { name: 'Queue counts' });
      await counts.getByRole('link', { name: /Action required/ }).waitFor();
      const expected: [RegExp, string, string[]][] = [
        [/Action required/, 'status=action_required', [ids.repoint, ids.noData, ids.reject]],
        [/Overdue/, 'overdue=true', [ids.late]],
        [/Due within 7 days/, 'due_within_days=7', [ids.soon]],
        [/Open, unassigned/, 'assignee=none', Object.values(ids)],
      ];
      for (const [name, filter, listed] of expected) {
        const tile = counts.getByRole('link', { name });
        const shown = Number(await tile.locator('.count-value').innerText());
        await tile.click();
        await page.waitForURL(new RegExp(filter));
        await waitForRows(listed);
        await page.getByText(`${listed.length} request${listed.length === 1 ? '' : 's'} shown`).waitFor();
        assert.equal(shown, listed.length, `the ${name} count`);
      }
      await screenshot(page, `whole-day-counts-${dialect.name}`);
    });

    it('finds a request by e-mail address in another case; request ids never wrap', async () => {
      await page.goto(`${origin}/console/#/queue`);
      await page.locator('#filter-subject-id').fill('  maria.lopez@EXAMPLE.org ');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await waitForRows([ids.maria]);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.locator('#filter-subject-id').fill('');
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await waitForRows(Object.values(ids));
        const lines = await page.evaluate<number[]>(
          `[...document.querySelectorAll('table.queue td[data-label="Request"] a')].map((a) => a.getClientRects().length)`,
        );
        assert.deepEqual(lines, Array(6).fill(1), `each id on one line at ${width} px`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('previews a bulk extension per request (new due date, or why refused), then shows the results with their dates', async () => {
      await page.getByRole('checkbox', { name: `Select ${ids.late}` }).check();
      await page.getByRole('checkbox', { name: `Select ${ids.soon}` }).check();
      const bulk = page.getByRole('form', { name: 'Act on the selected requests' });
      await bulk.locator('#bulk-action').selectOption('extend');
      await bulk.getByLabel(/^Reason/).fill('Several systems to search (Art. 12(3))');
      await bulk.getByRole('button', { name: 'Preview: extend deadline' }).click();
      const preview = bulk.getByRole('table');
      await preview.waitFor();
      const previewed = await preview.getByRole('row').filter({ hasText: ids.soon }).innerText();
      assert.match(await preview.getByRole('row').filter({ hasText: ids.late }).innerText(), /refused\s+its deadline has passed/);
      assert.equal((await get(`/api/v1/privacy/requests/${ids.soon}`)).extended_due_at, null, 'nothing sent before confirming');
      await checkBothWidths(page, `whole-day-bulk-preview-${dialect.name}`);
      await bulk.getByRole('button', { name: 'Confirm: extend deadline, 2 requests' }).click();
      const results = bulk.getByRole('status', { name: 'Results' });
      await results.waitFor();
      const extended = await get(`/api/v1/privacy/requests/${ids.soon}`);
      assert.notEqual(extended.extended_due_at, null);
      // GDPR Art. 12(3): two further months; the preview named the date the service then set.
      const day = new Date(extended.extended_due_at).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium' });
      assert.match(previewed, new RegExp(`queued\\s+due ${day}`), previewed);
      assert.match(
        await results.getByRole('listitem').filter({ hasText: ids.soon }).innerText(),
        new RegExp(`queued, due ${day}`),
      );
      assert.match(await results.getByRole('listitem').filter({ hasText: ids.late }).innerText(), /refused \(409\)/);
      await screenshot(page, `whole-day-bulk-results-1280-${dialect.name}`);
    });

    it('re-points a request whose identity matched nothing; it runs again', async () => {
      await page.goto(`${origin}/console/#/requests/${ids.repoint}`);
      await page.getByRole('heading', { name: 'Identity review' }).waitFor();
      await page.getByRole('button', { name: 'Point to another identity' }).click();
      const form = page.getByRole('form', { name: 'Point to another identity' });
      await form.getByRole('button', { name: 'Confirm: point to this identity' }).click();
      await form.locator('#repoint-subject-error').waitFor();
      assert.equal(await form.locator('#repoint-subject').getAttribute('aria-invalid'), 'true');
      await form.getByLabel('Subject id').fill('ghost-typo-fixed');
      await form.getByLabel(/^Reason/).fill('The id was mistyped at intake');
      await checkBothWidths(page, `whole-day-repoint-${dialect.name}`);
      await form.getByRole('button', { name: 'Confirm: point to this identity' }).click();
      await page.getByText('Pointed to another identity: done. Status is now queued.').waitFor();
      const stored = await get(`/api/v1/privacy/requests/${ids.repoint}`);
      assert.deepEqual([stored.status, stored.subject_provider, stored.subject_id], ['queued', 'github', 'ghost-typo-fixed']);
      await page.getByRole('region', { name: 'Timeline' }).getByText('identity repointed').waitFor();
      assert.equal(await page.getByRole('heading', { name: 'Identity review' }).count(), 0, 'the review is over');
    });

    it('confirms that no data is held, showing the sentence the person will get first', async () => {
      await page.goto(`${origin}/console/#/requests/${ids.noData}`);
      await page.getByRole('button', { name: 'Confirm no data is held' }).click();
      const form = page.getByRole('form', { name: 'Confirm no data is held' });
      const quote = form.getByLabel('What the person is told');
      await quote.waitFor();
      const { statement } = await get(`/api/v1/privacy/requests/${ids.noData}/confirm-no-data`);
      assert.equal((await quote.innerText()).trim(), statement);
      await form.getByLabel(/^Reason/).fill('Searched the CRM and the mailbox by hand: nothing');
      await checkBothWidths(page, `whole-day-no-data-${dialect.name}`);
      await form.getByRole('button', { name: 'Confirm: no data is held' }).click();
      await page.getByText('Confirmed no data is held: done. Status is now completed.').waitFor();
      const pkg = await get(`/api/v1/privacy/requests/${ids.noData}/package`);
      assert.equal(pkg.no_data_confirmation.statement, statement, 'the person gets the sentence shown');
    });

    it('rejects a request waiting in action_required with the reason the person is mailed (Art. 12(4))', async () => {
      await page.goto(`${origin}/console/#/requests/${ids.reject}`);
      await page.getByRole('heading', { name: 'Identity review' }).waitFor();
      await page.getByRole('button', { name: 'Reject' }).click();
      const form = page.getByRole('form', { name: 'Reject' });
      assert.match(await form.innerText(), /mailed that their request was declined, with the reason below word for word/);
      assert.match(await form.innerText(), /supervisory authority/);
      const reason = 'We could not confirm that the account is yours.';
      await form.getByLabel('Reason the person will be told (also recorded in the audit trail)').fill(reason);
      await checkBothWidths(page, `whole-day-reject-${dialect.name}`);
      await form.getByRole('button', { name: 'Confirm: reject' }).click();
      await page.getByText('Reject: done. Status is now rejected.').waitFor();
      const mail = await t.services.database.db
        .selectFrom('privacy_center_mails')
        .select(['kind', 'payload'])
        .where('request_id', '=', ids.reject)
        .where('kind', '=', 'rejected')
        .executeTakeFirstOrThrow();
      const text = renderMail('rejected', JSON.parse(mail.payload) as MailPayload, null, null).text;
      assert.ok(text.includes(`The reason: ${reason}`), text);
      assert.match(text, /complain to a data protection supervisory authority/);
    });

    it('shows a repeated request with the request it repeats, and proceeds with it (PRODUCT §2.20)', async () => {
      const policy = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/policies/workspaces/beta',
        headers: { authorization: `Bearer ${officer}` },
        payload: { repeat_window_days: 30 },
      });
      assert.equal(policy.statusCode, 200, policy.body);
      const first = await file({ workspace_id: 'beta', subject_id: 'twice-1' });
      const again = await file({ workspace_id: 'beta', subject_id: 'twice-1' });
      assert.equal((await get(`/api/v1/privacy/requests/${again}`)).status_reason, 'repeat_request');
      await page.goto(`${origin}/console/#/requests/${again}`);
      await page.getByText(/waits for a decision: it repeats a recent request of the same person/).waitFor();
      const link = page.locator('dl.fields').getByRole('link', { name: first });
      assert.equal(await link.getAttribute('href'), `#/requests/${first}`);
      await page.getByRole('button', { name: 'Reject' }).click();
      assert.match(
        await page.getByRole('form', { name: 'Reject' }).innerText(),
        /manifestly unfounded or excessive \(GDPR Art\. 12\(5\)\)/,
      );
      await page.getByRole('button', { name: 'Proceed' }).click();
      const form = page.getByRole('form', { name: 'Proceed' });
      assert.match(await form.innerText(), /goes on as if it repeated nothing/);
      await form.getByRole('button', { name: 'Confirm: proceed' }).click();
      await form.getByText('Give a reason: it is recorded in the audit trail.').waitFor();
      await form.getByLabel(/^Why it goes on/).fill('A new order since the first request');
      await checkBothWidths(page, `whole-day-repeat-${dialect.name}`);
      await form.getByRole('button', { name: 'Confirm: proceed' }).click();
      await page.getByText('Proceed: done. Status is now queued.').waitFor();
      const proceeded = await get(`/api/v1/privacy/requests/${again}`);
      assert.equal(proceeded.status, 'queued');
      assert.equal(proceeded.related_request_id, first, 'the link to what it repeated stays');
    });

    it('says who filed a request an authorized agent filed, with its DRP request, hints and proof (PRODUCT §2.19, §2.21)', async () => {
      // A real DRP exercise: the business joins, the test agent pairs and files a deletion.
      const drpAgent = fixtureDrpAgent();
      const token = await joinDrpNetwork(t, await t.bearer(['admin'], ['acme']), drpAgent, {
        agentName: 'Consumer Reports Permission Slip',
      });
      const exercised = await t.app.inject({
        method: 'POST',
        url: '/drp/v1/data-rights-request',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        payload: drpAgent.sign(
          drpAgent.exerciseClaims('acme-retail', TIMES.fresh(new Date()), {
            email: 'agent-filed@example.org',
            power_of_attorney: 'poa-2026-0042',
            relationships: ['customer', 'newsletter'],
          }),
        ),
      });
      assert.equal(exercised.statusCode, 200, exercised.body);
      const drpRequestId = exercised.json().request_id as string;
      const [record] = await t.services.database.db
        .selectFrom('drp_requests')
        .select('privacy_request_id')
        .where('request_id', '=', drpRequestId)
        .execute();
      const id = record!.privacy_request_id!;
      await page.goto(`${origin}/console/#/requests/${id}`);
      const filedBy = page.locator('dl.fields div', { hasText: 'Filed by' });
      await filedBy.getByText('Consumer Reports Permission Slip (authorized agent)').waitFor();
      await filedBy.getByText('Relationships the agent named: customer, newsletter').waitFor();
      assert.match(
        await filedBy.innerText(),
        new RegExp(
          `${drpAgent.agentId}[\\s\\S]*DRP request ${drpRequestId}[\\s\\S]*Relationships the agent named: customer, newsletter[\\s\\S]*The agent attests: e-mail verified[\\s\\S]*Proof of authority: poa-2026-0042`,
        ),
      );
      await page
        .locator('ol.timeline')
        .getByText(/filed by Consumer Reports Permission Slip \(agent\)/)
        .waitFor();
      await checkBothWidths(page, `whole-day-agent-filed-${dialect.name}`);
    });

    it('links an http(s) intake reference safely, and no other', async () => {
      await page.goto(`${origin}/console/#/requests/${ids.maria}`);
      const link = page.getByRole('link', { name: 'https://support.example.com/tickets/77' });
      await link.waitFor();
      assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
      assert.equal(await link.getAttribute('target'), '_blank');
      await page.goto(`${origin}/console/#/requests/${ids.soon}`);
      await page.getByText('javascript:alert(1)').waitFor();
      assert.equal(await page.locator('a[href^="javascript"]').count(), 0);
    });

    it('names the controller and turns the privacy center on in Workspace settings, errors at their fields', async () => {
      await page.goto(`${origin}/console/#/settings?workspace=beta`);
      await page.getByText('No controller is named for beta').waitFor();
      await page.getByLabel('Controller name').fill('Beta GmbH');
      await page.getByLabel('Contact e-mail').fill('datenschutz@beta.example');
      await page.getByLabel('Supervisory authority (optional)').fill('BfDI');
      await page.getByLabel('Supervisory authority’s web address').fill('not a url');
      await page.getByRole('button', { name: 'Save the controller profile' }).click();
      await page.locator('#controller-authority_url-error').waitFor();
      assert.equal(await page.locator('#controller-name-error').count(), 0);
      assert.equal(await page.locator('#controller-authority_url').getAttribute('aria-invalid'), 'true');
      await page.getByLabel('Supervisory authority’s web address').fill('https://www.bfdi.bund.de');
      await page.getByRole('button', { name: 'Save the controller profile' }).click();
      await page.getByText('Saved (version 1). Letters and packages from now on name Beta GmbH.').waitFor();
      const profile = await get('/api/v1/workspaces/beta/controller');
      assert.deepEqual(profile.supervisory_authority, { name: 'BfDI', url: 'https://www.bfdi.bund.de' });

      const center = page.getByRole('form', { name: 'Privacy center settings' });
      await center.getByLabel('People may file requests on the public page').check();
      await center.getByLabel('Title of the page (optional)').fill('Beta privacy requests');
      assert.match(
        await center.innerText(),
        /On: anyone can ask for access \(a copy of their data\), deletion at \/privacy-center\/beta\//,
      );
      await checkBothWidths(page, `whole-day-settings-${dialect.name}`);
      await center.getByRole('button', { name: 'Save the privacy center' }).click();
      await page.getByText('Saved: the privacy center is on.').waitFor();
      const link = page.getByRole('link', { name: 'Open its public page' });
      assert.equal(await link.getAttribute('href'), '/privacy-center/beta/');
      const publicPage = await fetch(`${origin}/privacy-center/beta/`);
      assert.equal(publicPage.status, 200);
      assert.match(await publicPage.text(), /Beta privacy requests/);
    });

    it('sets the review before release and the repeat window in Workspace settings, keeping the rest of the layer (PRODUCT §2.20, §2.21)', async () => {
      const layerUrl = '/api/v1/policies/workspaces/beta';
      const layer = async () =>
        (await t.app.inject({ url: layerUrl, headers: { authorization: `Bearer ${officer}` } })).json() as {
          settings: Record<string, unknown>;
        };
      const before = await layer();
      const kept = await t.app.inject({
        method: 'PUT',
        url: layerUrl,
        headers: { authorization: `Bearer ${officer}` },
        payload: { ...before.settings, retention_days: 45 },
      });
      assert.equal(kept.statusCode, 200, kept.body);
      // Another view first: the settings view reads the layer when it opens (a PUT replaces the whole layer).
      await page.goto(`${origin}/console/#/queue`);
      await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
      await page.goto(`${origin}/console/#/settings?workspace=beta`);
      await page.getByText(/held when they repeat one open or answered in the last 30 days/).waitFor();
      const form = page.getByRole('form', { name: 'Review and repeats' });
      await form.getByLabel(/Check each access or export package/).check();
      await form.getByLabel(/Hold a request that repeats one/).fill('366');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText('A whole number of days from 0 (off) to 365').waitFor();
      assert.equal((await layer()).settings.review_packages, undefined, 'nothing saved');
      await form.getByLabel(/Hold a request that repeats one/).fill('14');
      await checkBothWidths(page, `whole-day-review-settings-${dialect.name}`);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText(/^Saved: policy version/).waitFor();
      const after = await layer();
      assert.deepEqual(after.settings, { ...before.settings, retention_days: 45, review_packages: true, repeat_window_days: 14 });
      await page.getByText(/Packages are checked before release/).waitFor();
    });

    it('opens the report on the current year and says the audit list’s order', async () => {
      await page.goto(`${origin}/console/#/reports`);
      await page.getByRole('heading', { name: 'By request type' }).waitFor();
      const year = new Date().getUTCFullYear();
      assert.equal(await page.locator('#report-from').inputValue(), `${year}-01-01`);
      assert.equal(await page.locator('#report-to').inputValue(), `${year}-12-31`);
      assert.match(await page.locator('table.report').first().innerText(), /access\s+2\b/, 'both access requests, filed today');
      await checkBothWidths(page, `whole-day-report-${dialect.name}`);
      await page.goto(`${origin}/console/#/audit`);
      await page.getByText('Audit entries, oldest first').waitFor();
      const seqs = (await page.locator('table.audit tbody td[data-label="#"]').allInnerTexts()).map(Number);
      assert.ok(seqs.length > 5);
      assert.deepEqual(
        seqs,
        [...seqs].sort((a, b) => a - b),
        'in the order the heading says',
      );
    });

    it('downloads the queue as CSV with a BOM, status_reason and days_left', async () => {
      await page.goto(`${origin}/console/#/queue?status=`);
      await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV (these filters)' }).click();
      const csv = readFileSync(await (await downloading).path(), 'utf8');
      assert.ok(csv.startsWith('\uFEFFid,'), 'a UTF-8 BOM first');
      const [header, ...rows] = csv.slice(1).trim().split('\r\n');
      assert.match(header ?? '', /,assignee,status_reason,days_left,agent$/);
      // days_left is the last column but one (then agent: empty, none was filed by an agent).
      const late = rows.find((r) => r.startsWith(ids.late))?.split(',');
      assert.ok(Number(late?.at(-2)) < 0, `overdue: negative days left (${late?.join(',')})`);
      assert.equal(late?.at(-1), '', 'no agent');
      assert.equal(
        rows
          .find((r) => r.startsWith(ids.noData))
          ?.split(',')
          .at(-2),
        '',
        'completed: no days left',
      );
    });

    it('shows a privacy:read token no 403 under Connections and the settings without forms', async () => {
      const readerPage = await page.context().newPage();
      const forbidden: string[] = [];
      readerPage.on('response', (r) => {
        if (r.status() === 403) forbidden.push(r.url());
      });
      await signIn(readerPage, origin, reader);
      await readerPage.getByRole('link', { name: 'Connections' }).click();
      await readerPage.getByText('are managed with an admin token. Yours has privacy:read').waitFor();
      assert.equal(await readerPage.getByRole('alert').count(), 0, 'no refusal shown');
      await checkBothWidths(readerPage, `whole-day-connections-reader-${dialect.name}`);
      await readerPage.getByRole('link', { name: 'Settings' }).click();
      await readerPage.getByText('Acme Ltd').waitFor();
      assert.equal(await readerPage.getByRole('form').count(), 1, 'only the workspace choice, no settings form');
      assert.match(await readerPage.innerText('main'), /saving it needs an admin token/);
      await checkBothWidths(readerPage, `whole-day-settings-reader-${dialect.name}`);
      assert.deepEqual(forbidden, [], 'the console asked nothing the token may not read');
      await readerPage.close();
    });

    // Last: its worker also runs the queued requests the tests above read as queued.
    it('reviews a package before release: withholds a value by its row, four eyes refuse the redactor, another operator releases (PRODUCT §2.20)', async () => {
      const token = async (name: string, scopes: string[]) =>
        (await t.services.tokens.create({ name, scopes, workspaces: ['gamma'], actor: 'test' })).token;
      const admin = await token('Gamma Admin', ['admin']);
      const [rae, sol] = [
        await token('Rae Reviewer', ['privacy:write', 'privacy:read']),
        await token('Sol Second', ['privacy:write', 'privacy:read']),
      ];
      await t.services.controllers.put('gamma', { name: 'Gamma AG', contact_email: 'privacy@gamma.example' }, 'test');
      await t.services.policies.putLayer('gamma', null, { review_packages: true, confirm_no_data: false }, 'test');
      const system = await t.app.inject({
        method: 'POST',
        url: '/api/v1/data-systems',
        headers: { authorization: `Bearer ${admin}` },
        payload: {
          workspace_id: 'gamma',
          key: 'shop',
          name: 'Shop',
          kind: 'manual',
          request_types: ['access'],
          categories: ['user'],
        },
      });
      assert.equal(system.statusCode, 201, system.body);
      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: `Bearer ${admin}`, 'idempotency-key': 'whole-day-review-key' },
        payload: {
          request_type: 'access',
          scope: ['user'],
          subject_provider: 'email',
          subject_id: 'kim@example.org',
          workspace_id: 'gamma',
          client_request_id: 'whole-day-review',
          intake_ref: 'ticket',
        },
      });
      assert.equal(filed.statusCode, 202, filed.body);
      const id = filed.json().id as string;
      await processQueued();
      const task = await t.services.database.db
        .selectFrom('data_tasks')
        .select('id')
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
      const answered = await t.app.inject({
        method: 'POST',
        url: `/api/v1/data-tasks/${task.id}/result`,
        headers: { authorization: `Bearer ${admin}` },
        payload: { outcome: 'completed', data: { 'user.contact': [{ order: 'o-7', note: 'Left with Quentin Neighbour' }] } },
      });
      assert.equal(answered.statusCode, 200, answered.body);
      const reviewerPage = await page.context().newPage();
      await signIn(reviewerPage, origin, rae);
      await reviewerPage.goto(`${origin}/console/#/requests/${id}`);
      await reviewerPage.getByText(/waits for a review of its package before release/).waitFor();
      const path = '/systems/shop/user.contact/0/note';
      await reviewerPage.getByRole('button', { name: `Withhold ${path}` }).click();
      const form = reviewerPage.getByRole('form', { name: `Withhold ${path}` });
      await form.getByRole('button', { name: 'Withhold' }).click();
      await form.getByText('Give the reason the person will read in place of the value.').waitFor();
      await form.getByLabel('Reason the person reads').fill('names a neighbour');
      assert.match(await form.innerText(), /\[withheld: names a neighbour\]/, 'says what the person will read');
      await form.getByRole('button', { name: 'Withhold' }).click();
      await reviewerPage.getByText('[withheld: names a neighbour]').waitFor();
      await reviewerPage.getByText('Withheld by Rae Reviewer').waitFor();
      await checkBothWidths(reviewerPage, `whole-day-package-review-${dialect.name}`);
      await reviewerPage.setViewportSize({ width: 1280, height: 900 });
      await reviewerPage
        .locator('section[aria-labelledby="package-review"]')
        .screenshot({ path: fileURLToPath(new URL(`package-review-${dialect.name}.png`, CONSOLE_SCRATCH)) });
      await reviewerPage.getByRole('button', { name: 'Release', exact: true }).click();
      await reviewerPage.getByText(/another operator must check it and release it/).waitFor();
      assert.equal(
        (
          await t.services.database.db
            .selectFrom('privacy_requests')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).status,
        'action_required',
        'nothing changed',
      );

      const second = await page.context().newPage();
      await signIn(second, origin, sol);
      await second.goto(`${origin}/console/#/requests/${id}`);
      await second.getByText('with 1 value withheld', { exact: false }).waitFor();
      await second.getByRole('button', { name: 'Release', exact: true }).click();
      await second.getByRole('button', { name: 'Open the letter (new tab)' }).waitFor();
      const released = await t.app.inject({
        url: `/api/v1/privacy/requests/${id}/package`,
        headers: { authorization: `Bearer ${sol}` },
      });
      assert.equal(released.json().systems.shop['user.contact'][0].note, '[withheld: names a neighbour]');
      assert.ok(!released.body.includes('Quentin'));
      await reviewerPage.close();
      await second.close();
    });
  });
}
