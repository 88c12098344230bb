/**
 * The officer's day in the console (PRODUCT.md §2.16, issue 26), in Chromium on a real database:
 * the queue's counts on top, open requests by binding due date by default with "due within 7
 * days" marked, filters kept in the address, rows selected for one bulk action ("Assign to me"),
 * the CSV download, assignment and notes on the request page, the extend form showing the new
 * date, the report and the audit trail browsed with filters; a privacy:read token sees no action
 * and the filer no Approve. axe-core (no serious/critical) and no sideways scroll at 1280 and
 * 390 px; screenshots in .scratch/console/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openChromium } from '../../helpers/chromium.js';
import { openConsoleWorld, type ConsoleWorld } from '../../helpers/console-world.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const SCRATCH = new URL('../../../.scratch/console/', import.meta.url);
const DAY_MS = 86_400_000;

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const overflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

for (const dialect of dialects()) {
  describe(`console: the officer's day (${dialect.name})`, () => {
    let database: TestDatabase;
    let world: ConsoleWorld;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let soonId: string;
    let readerToken: string;

    const signIn = async (p: Page, token: string) => {
      await p.goto(`${world.origin}/console/`);
      await p.evaluate('sessionStorage.clear()');
      await p.goto(`${world.origin}/console/#/queue`);
      await p.getByLabel('API token').fill(token);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
    };
    const shot = async (name: string) =>
      writeFileSync(new URL(`${name}-${dialect.name}.png`, SCRATCH), await page.screenshot({ fullPage: true }));

    before(async () => {
      database = await dialect.create();
      world = await openConsoleWorld(database);
      // Received 27 days ago (GDPR, one month): due in about 3 days.
      const soon = await world.t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: world.intake, 'idempotency-key': 'officer-soon-0001' },
        payload: {
          request_type: 'deletion',
          scope: ['user'],
          subject_id: 'soon-subject-1',
          subject_provider: 'github',
          workspace_id: 'acme',
          client_request_id: 'officer-soon-0001',
          intake_ref: 'ticket 9',
          received_at: new Date(Date.now() - 27 * DAY_MS).toISOString(),
        },
      });
      assert.equal(soon.statusCode, 202, soon.body);
      soonId = soon.json().id;
      readerToken = (
        await world.t.services.tokens.create({
          name: 'auditor',
          scopes: ['privacy:read'],
          workspaces: ['acme', 'beta'],
          actor: 'test',
        })
      ).token;
      browser = await openChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      page = await context.newPage();
      mkdirSync(SCRATCH, { recursive: true });
      await signIn(page, world.officerToken);
    });
    after(async () => {
      await browser?.close();
      await world?.t.close();
      await database.drop();
    });

    it('shows the counts on top and open requests by binding due date, due within 7 days marked', async () => {
      const counts = page.getByRole('region', { name: 'Queue counts' });
      await counts.getByText('Due within 7 days').waitFor();
      assert.match(await counts.innerText(), /1\s+Overdue/);
      assert.match(await counts.innerText(), /1\s+Due within 7 days/);
      await page.getByRole('row').filter({ hasText: soonId }).waitFor();
      const text = await page.innerText('table.queue');
      assert.ok(!text.includes(world.answeredId), 'a completed request is not open');
      const ids = await page.locator('table.queue tbody tr td[data-label="Request"]').allInnerTexts();
      assert.equal(ids[0], world.overdueId, 'the overdue one first (earliest binding due date)');
      assert.equal(ids[1], soonId);
      const soonRow = page.getByRole('row').filter({ hasText: soonId });
      assert.match(await soonRow.innerText(), /within 7 days/);
      assert.equal(await soonRow.getAttribute('class'), 'row-due-soon');
      await shot('officer-queue-1280');
    });

    it('keeps the filters in the address across a reload', async () => {
      await page.locator('#filter-workspace').fill('acme');
      await page.locator('#filter-assignee').selectOption('none');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/#\/queue\?workspaces=acme&assignee=none/);
      await page.reload();
      await page.getByRole('row').filter({ hasText: soonId }).waitFor();
      assert.equal(await page.locator('#filter-workspace').inputValue(), 'acme');
      assert.equal(await page.locator('#filter-assignee').inputValue(), 'none');
      assert.ok(!(await page.innerText('table.queue')).includes(world.pendingId), 'beta is filtered out');
    });

    it('assigns the selected rows to me with one action, then lists them as mine', async () => {
      await page.getByRole('checkbox', { name: `Select ${soonId}` }).check();
      await page.getByRole('checkbox', { name: `Select ${world.overdueId}` }).check();
      const bulk = page.getByRole('form', { name: 'Act on the selected requests' });
      await bulk.getByText('2 requests selected').waitFor();
      await bulk.locator('#bulk-action').selectOption('assign');
      await bulk.getByRole('button', { name: 'Preview: assign to me' }).click();
      await bulk.getByRole('button', { name: 'Confirm: assign to me, 2 requests' }).click();
      await bulk.getByRole('status', { name: 'Results' }).waitFor();
      assert.match(await bulk.getByRole('status', { name: 'Results' }).innerText(), /queued/);
      await shot('officer-bulk-1280');
      assert.deepEqual(await seriousViolations(page), [], 'queue with the bulk form');
      await page.locator('#filter-assignee').selectOption('me');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('2 requests shown').waitFor();
      assert.match(await page.getByRole('row').filter({ hasText: soonId }).innerText(), /officer/);
    });

    it('downloads the queue as CSV with the same filters', async () => {
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download CSV (these filters)' }).click();
      const download = await downloading;
      const csv = readFileSync(await download.path(), 'utf8');
      assert.ok(csv.startsWith('\uFEFF'), 'a UTF-8 BOM first (PRODUCT §2.21)');
      const lines = csv.slice(1).trim().split('\r\n');
      assert.equal(
        lines[0],
        'id,request_type,workspace_id,status,regulation,received_at,due_at,extended_due_at,completed_at,assignee,status_reason,days_left,agent',
      );
      assert.equal(lines.length, 3, csv);
      assert.ok(!csv.includes('soon-subject-1'), 'no subject identity');
    });

    it('notes, unassigns and shows the new date before an extension, on the request page', async () => {
      await page.goto(`${world.origin}/console/#/requests/${soonId}`);
      await page.getByText('Assigned to:').waitFor();
      assert.match(await page.locator('.assignment').innerText(), /officer \(you\)/);
      await page.getByLabel('New note (internal; seen by operators only)').fill('Called the subject; waiting for the ID');
      await page.getByRole('button', { name: 'Add note' }).click();
      // The note is read in the timeline, at its own entry, with its author (PRODUCT §2.16).
      const entry = page
        .getByRole('region', { name: 'Timeline' })
        .getByRole('listitem')
        .filter({ hasText: /note[_ ]added/ })
        .first();
      await entry.getByText('Called the subject; waiting for the ID').waitFor();
      assert.match(await entry.innerText(), /note[_ ]added by officer \(/);
      await page.getByRole('button', { name: 'Unassign' }).click();
      await page.getByRole('button', { name: 'Assign to me' }).waitFor();
      await page.getByRole('button', { name: 'Extend deadline' }).click();
      const extend = page.getByRole('form', { name: 'Extend deadline' });
      await extend.getByText('The binding due date becomes').waitFor();
      const filed = (
        await world.t.app.inject({ url: `/api/v1/privacy/requests/${soonId}`, headers: { authorization: world.intake } })
      ).json();
      // GDPR: one month from receipt, then two more.
      const received = new Date(filed.received_at);
      const expected = new Date(Date.UTC(received.getUTCFullYear(), received.getUTCMonth() + 3, received.getUTCDate()));
      const day = expected.toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium' });
      assert.ok((await extend.innerText()).includes(day), `${await extend.innerText()} should name ${day}`);
      await shot('officer-request-1280');
      assert.deepEqual(await seriousViolations(page), [], 'request page with notes and the extend form');
    });

    it('shows the report and the audit trail with filters', async () => {
      await page.goto(`${world.origin}/console/#/reports?from=2000-01-01&to=2100-12-31`);
      await page.getByRole('heading', { name: 'By request type' }).waitFor();
      assert.match(await page.locator('table.report').first().innerText(), /access/);
      await shot('officer-report-1280');
      assert.deepEqual(await seriousViolations(page), [], 'report');
      await page.goto(`${world.origin}/console/#/audit?action=privacy_request.assigned`);
      await page.locator('table.audit').waitFor();
      const rows = await page.locator('table.audit tbody tr').allInnerTexts();
      assert.ok(rows.length >= 3, `assigned twice in bulk and unassigned once: ${rows.length}`);
      assert.ok(rows.every((r) => r.includes('privacy_request.assigned')));
      await shot('officer-audit-1280');
      assert.deepEqual(await seriousViolations(page), [], 'audit');
    });

    it('has no serious axe violation and no sideways scroll at 390 px', async () => {
      await page.setViewportSize({ width: 390, height: 900 });
      for (const hash of ['queue', `requests/${soonId}`, 'reports', 'audit']) {
        await page.goto(`${world.origin}/console/#/${hash}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        writeFileSync(
          new URL(`officer-${hash.replace(/\W+/g, '-')}-390-${dialect.name}.png`, SCRATCH),
          await page.screenshot({ fullPage: true }),
        );
        assert.deepEqual(await seriousViolations(page), [], `${hash} at 390 px`);
        assert.ok((await overflow(page)) <= 0, `${hash} scrolls sideways at 390 px`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it('shows a privacy:read token no action, and the filer no Approve', async () => {
      const reader = await context.newPage();
      await signIn(reader, readerToken);
      await reader.getByRole('row').filter({ hasText: soonId }).waitFor();
      assert.equal(await reader.locator('table.queue input[type=checkbox]').count(), 0, 'no selection without privacy:write');
      assert.equal(await reader.getByText('File a new request').count(), 0);
      await reader.goto(`${world.origin}/console/#/requests/${world.pendingId}`);
      await reader.getByText('Your token may read requests, not act on them.').waitFor();
      assert.equal(await reader.getByRole('button', { name: /Approve|Reject|Extend|Cancel|Assign|Add note/ }).count(), 0);
      await reader.close();

      const filer = await context.newPage();
      await signIn(filer, world.intake.replace(/^Bearer /, ''));
      await filer.goto(`${world.origin}/console/#/requests/${world.pendingId}`);
      await filer.getByText('You filed this request, so another operator must approve it.').waitFor();
      assert.equal(await filer.getByRole('button', { name: 'Approve' }).count(), 0);
      await filer.getByRole('button', { name: 'Reject' }).waitFor();
      await filer.close();
    });
  });
}
