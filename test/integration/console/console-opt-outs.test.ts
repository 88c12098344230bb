/**
 * The console's opt-outs (PRODUCT §2.18, §2.21, issue 35), in Chromium on a real database: the
 * Opt-outs view lists them newest first with the kind in plain words, choice, source, status,
 * received and due dates; filters by workspace and "open only" kept in the address; pages with
 * "Load more" as the queue does; a privacy:read token sees it with no action. A request's page
 * shows its subject's preferences (opted out / opted in / not set, source and date). The queue's
 * counts of open and overdue opt-outs are links to this view filtered to exactly what they count
 * (`open=true`, `overdue=true`: the list's `status=open` and `overdue=true`). axe-core (no
 * serious/critical) and no sideways scroll at 1280 and 390 px; screenshots in .scratch/console/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
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
  describe(`console: opt-outs (${dialect.name})`, () => {
    let database: TestDatabase;
    let world: ConsoleWorld;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let readerToken: string;
    let queuedId: string;
    let n = 0;

    const file = async (body: Record<string, string>) => {
      n += 1;
      const response = await world.t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/opt-outs',
        headers: { authorization: world.intake, 'idempotency-key': `console-oo-${n}` },
        payload: { subject_provider: 'github', client_request_id: `console-oo-${n}`, ...body },
      });
      assert.equal(response.statusCode, 202, response.body);
      return response.json().id as string;
    };
    const signIn = async (p: Page, token: string) => {
      await p.goto(`${world.origin}/console/`);
      await p.evaluate('sessionStorage.clear()');
      await p.goto(`${world.origin}/console/#/queue`);
      await p.getByLabel('API token').fill(token);
      await p.getByRole('button', { name: 'Sign in' }).click();
      await p.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
    };
    const check = async (p: Page, name: string) => {
      for (const width of [1280, 390]) {
        await p.setViewportSize({ width, height: 900 });
        writeFileSync(new URL(`${name}-${width}-${dialect.name}.png`, SCRATCH), await p.screenshot({ fullPage: true }));
        assert.deepEqual(await seriousViolations(p), [], `${name} at ${width} px`);
        assert.ok((await overflow(p)) <= 0, `${name} scrolls sideways at ${width} px`);
      }
      await p.setViewportSize({ width: 1280, height: 900 });
    };

    before(async () => {
      database = await dialect.create();
      world = await openConsoleWorld(database);
      // 25 older ones in acme (a page of the queue's size), then the overdue request's subject, then beta.
      for (let i = 0; i < 25; i += 1)
        await file({
          workspace_id: 'acme',
          subject_id: `paged-subject-${i}`,
          kind: 'sensitive_use',
          choice: 'opt_out',
          source: 'api',
          received_at: new Date(Date.now() - 20 * DAY_MS).toISOString(),
        });
      const subject = { workspace_id: 'acme', subject_id: 'overdue-subject-4711' };
      await file({ ...subject, kind: 'sale_sharing', choice: 'opt_out', source: 'form' });
      await file({ ...subject, kind: 'direct_marketing', choice: 'opt_in', source: 'api' });
      queuedId = await file({
        workspace_id: 'beta',
        subject_id: 'beta-subject-1',
        kind: 'sale_sharing',
        choice: 'opt_out',
        source: 'gpc',
      });
      // Every opt-out is honoured when filed today (no data system declares one yet): one made open by hand.
      await world.t.services.database.db
        .updateTable('opt_outs')
        .set({ status: 'queued', completed_at: null })
        .where('id', '=', queuedId)
        .execute();
      readerToken = (
        await world.t.services.tokens.create({
          name: 'auditor',
          scopes: ['privacy:read'],
          workspaces: ['acme', 'beta'],
          actor: 'test',
        })
      ).token;
      browser = await openChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      mkdirSync(SCRATCH, { recursive: true });
      await signIn(page, world.officerToken);
    });
    after(async () => {
      await browser?.close();
      await world?.t.close();
      await database.drop();
    });

    it('lists opt-outs newest first, in plain words, and pages as the queue does', async () => {
      await page.getByRole('link', { name: 'Opt-outs', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Opt-outs' }).waitFor();
      await page.getByText('25 opt-outs shown, more available').waitFor();
      const ids = await page.locator('table.opt-outs tbody tr td[data-label="Opt-out"]').allInnerTexts();
      assert.equal(ids[0], queuedId, 'the newest first');
      const first = await page.locator('table.opt-outs tbody tr').first().innerText();
      assert.match(first, /Do not sell or share/);
      assert.match(first, /opted out/);
      assert.match(first, /Global Privacy Control/);
      assert.match(first, /queued/);
      const second = await page.locator('table.opt-outs tbody tr').nth(1).innerText();
      assert.match(second, /Direct marketing/);
      assert.match(second, /opted in/);
      assert.match(second, /completed/);
      assert.match(await page.locator('table.opt-outs tbody tr').nth(2).innerText(), /privacy center form/);
      await check(page, 'opt-outs');
      await page.getByRole('button', { name: 'Load more' }).click();
      await page.getByText('28 opt-outs shown').waitFor();
      assert.match(await page.locator('table.opt-outs tbody tr').last().innerText(), /Limit sensitive data use/);
      assert.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0);
    });

    it('filters by workspace and open only, kept in the address across a reload', async () => {
      await page.locator('#optout-workspace').fill('beta');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('1 opt-out shown').waitFor();
      await page.locator('#optout-workspace').fill('acme');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('25 opt-outs shown, more available').waitFor();
      await page.getByLabel('Open only (queued or processing)').check();
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('0 opt-outs shown').waitFor();
      await page.locator('#optout-workspace').fill('');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('1 opt-out shown').waitFor();
      await page.waitForURL(/#\/opt-outs\?open=true$/);
      await page.reload();
      await page.getByText('1 opt-out shown').waitFor();
      assert.ok(await page.getByLabel('Open only (queued or processing)').isChecked());
      assert.match(await page.locator('table.opt-outs tbody').innerText(), new RegExp(queuedId));
      await check(page, 'opt-outs-open');
    });

    it("shows the subject's preferences on a request's page", async () => {
      await page.goto(`${world.origin}/console/#/requests/${world.overdueId}`);
      const section = page.getByRole('region', { name: "Subject's opt-out preferences" });
      await section.getByText('Do not sell or share').waitFor();
      await section.getByText('opted out').waitFor();
      const text = await section.innerText();
      assert.match(text, /Do not sell or share\s+opted out — by privacy center form, \d+ \w+ \d{4}, \d\d:\d\d UTC/);
      assert.match(text, /Limit sensitive data use\s+not set/);
      assert.match(text, /Direct marketing\s+opted in — by API, /);
      await check(page, 'opt-outs-request');
    });

    it("links the queue's opt-out counts to the opt-outs they count: open, and overdue", async () => {
      // One more made open by hand, its due date passed (an acme opt-out of 20 days ago).
      const [late] = await world.t.services.database.db
        .selectFrom('opt_outs')
        .select('id')
        .where('subject_id', '=', 'paged-subject-3')
        .execute();
      assert.ok(late);
      await world.t.services.database.db
        .updateTable('opt_outs')
        .set({ status: 'processing', completed_at: null, due_at: new Date(Date.now() - 2 * DAY_MS).toISOString() })
        .where('id', '=', late.id)
        .execute();
      const tiles = [
        ['Opt-outs open', /#\/opt-outs\?open=true$/, [late.id, queuedId], 'Open only (queued or processing)'],
        ['Opt-outs overdue', /#\/opt-outs\?overdue=true$/, [late.id], 'Overdue only (open, past their due date)'],
      ] as const;
      for (const [name, address, listed, checkbox] of tiles) {
        await page.goto(`${world.origin}/console/#/queue`);
        const tile = page.getByRole('region', { name: 'Queue counts' }).getByRole('link', { name: new RegExp(name) });
        await tile.waitFor();
        assert.equal(Number(await tile.locator('.count-value').innerText()), listed.length, `the ${name} count`);
        if (name === 'Opt-outs overdue') {
          assert.match((await tile.locator('..').getAttribute('class')) ?? '', /count-overdue/, 'drawn as overdue');
          await check(page, 'opt-outs-counts');
        }
        await tile.click();
        await page.waitForURL(address);
        await page.getByText(`${listed.length} opt-out${listed.length === 1 ? '' : 's'} shown`).waitFor();
        assert.deepEqual(
          (await page.locator('table.opt-outs tbody tr td[data-label="Opt-out"]').allInnerTexts()).sort(),
          [...listed].sort(),
        );
        assert.ok(await page.getByLabel(checkbox).isChecked(), `${checkbox} is checked`);
      }
      assert.match(
        await page.locator('table.opt-outs tbody tr td[data-label="Due"]').innerText(),
        /, overdue$/,
        'the overdue row says so',
      );
      assert.equal(await page.locator('table.opt-outs td.overdue').count(), 1);
      await check(page, 'opt-outs-overdue');
      // The same filter applied by hand, across a reload.
      await page.getByLabel('Overdue only (open, past their due date)').uncheck();
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('25 opt-outs shown, more available').waitFor();
      await page.getByLabel('Overdue only (open, past their due date)').check();
      await page.locator('#optout-workspace').fill('beta');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('0 opt-outs shown').waitFor();
      await page.waitForURL(/#\/opt-outs\?workspaces=beta&overdue=true$/);
      await page.reload();
      await page.getByText('0 opt-outs shown').waitFor();
      assert.ok(await page.getByLabel('Overdue only (open, past their due date)').isChecked());
    });

    it('shows a privacy:read token the list with no action but the filters', async () => {
      const reader = await context.newPage();
      await signIn(reader, readerToken);
      await reader.goto(`${world.origin}/console/#/opt-outs`);
      await reader.getByText('25 opt-outs shown, more available').waitFor();
      const buttons = await reader.getByRole('main').getByRole('button').allInnerTexts();
      assert.deepEqual(buttons.sort(), ['Apply filters', 'Load more']);
      await reader.close();
    });
  });
}
