/**
 * The privacy center's opt-out form as a person uses it (PRODUCT §2.18), in headless Chromium
 * with JavaScript off, as privacy-center-browser.test.ts drives the request form: a problem shown
 * at its field, the kinds recorded and the page saying what was recorded, and a browser sending
 * Global Privacy Control (`Sec-GPC: 1`) shown "Opt-Out Request Honored". Every page: no serious or
 * critical axe-core violation, no CSP refusal, no horizontal scroll at 1280 and 390 px.
 * Screenshots in `.scratch/privacy-center/` (`…-oo-*.png`).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { OPT_OUT_LABELS } from '../../../src/http/privacy-center/center-opt-out-pages.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openChromium } from '../../helpers/chromium.js';
import { overflow, seriousViolations } from '../../helpers/center-page-checks.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const SCRATCH = new URL('../../../.scratch/privacy-center/', import.meta.url);

for (const dialect of dialects()) {
  describe(`privacy center opt-out form in a browser (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let browser: Browser;
    let origin = '';
    let scripted: Page;
    const cspViolations: string[] = [];

    /** A context without JavaScript whose pages report CSP refusals. */
    const noScript = async (headers: Record<string, string> = {}): Promise<{ context: BrowserContext; page: Page }> => {
      const context = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: 1280, height: 900 },
        extraHTTPHeaders: headers,
      });
      const page = await context.newPage();
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
      });
      return { context, page };
    };
    /** Checks the page at both widths and saves screenshots named `name`. */
    const inspect = async (page: Page, name: string) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        assert.deepEqual(await seriousViolations(page, scripted), [], `${name} at ${width}px`);
        assert.ok((await overflow(page)) <= 0, `${name} scrolls sideways at ${width}px`);
        await page.screenshot({ path: new URL(`${dialect.name}-${name}-${width}.png`, SCRATCH).pathname, fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { env: { PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
      await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access', 'export', 'deletion'] }, 'test');
      browser = await openChromium();
      scripted = await (await browser.newContext()).newPage();
      mkdirSync(SCRATCH, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await t.close();
      await database.drop();
    });

    it('opts out without JavaScript: a problem at its field, then the page says what was recorded', async () => {
      const { context, page } = await noScript();
      await page.goto(`${origin}/privacy-center/acme/`);
      const form = page.getByRole('region', { name: 'Do not sell or share my personal information' });
      await form.waitFor();
      assert.equal(await page.getByText('Opt-Out Request Honored').count(), 0);
      await inspect(page, 'oo-1-form');

      // No kind chosen: the server says so at the kinds, the address kept, the form in view.
      await form.getByLabel('E-mail address').fill('ida@example.com');
      await form.getByRole('button', { name: 'Record my choice' }).click();
      await page.locator('#oo-kinds-problem').waitFor();
      assert.equal(new URL(page.url()).hash, '#opt-out');
      assert.equal(await page.locator('#oo-kinds-problem').innerText(), 'Please choose at least one.');
      assert.equal(await form.getByLabel('E-mail address').inputValue(), 'ida@example.com');
      const group = page.getByRole('group', { name: 'What should we stop?' });
      assert.equal(await group.getAttribute('aria-describedby'), 'oo-kinds-problem');
      await inspect(page, 'oo-2-problem');

      await group.getByLabel(OPT_OUT_LABELS.sale_sharing.label).check();
      await group.getByLabel(OPT_OUT_LABELS.direct_marketing.label).check();
      await page.getByRole('button', { name: 'Record my choice' }).click();
      await page.getByRole('heading', { name: 'Your choice is recorded' }).waitFor();
      const text = await page.locator('main').innerText();
      assert.match(text, /We recorded your choice for ida@example\.com\./);
      assert.match(text, /Do not sell or share my personal information\. Takes effect now\./);
      assert.match(text, /Do not use my data for direct marketing\. Takes effect now\./);
      assert.match(text, /We must tell those we sold or shared it with by \d{1,2} \w+ \d{4}, \d{2}:\d{2} UTC\./);
      assert.doesNotMatch(text, /sensitive/);
      await inspect(page, 'oo-3-recorded');
      const rows = await t.services.database.db
        .selectFrom('opt_outs')
        .select(['kind', 'source'])
        .where('subject_id', '=', 'ida@example.com')
        .execute();
      assert.deepEqual(rows.map((r) => `${r.kind}:${r.source}`).sort(), ['direct_marketing:form', 'sale_sharing:form']);
      assert.deepEqual(cspViolations, []);
      await context.close();
    });

    it('a browser sending Global Privacy Control is shown "Opt-Out Request Honored", and its opt-out is recorded', async () => {
      const { context, page } = await noScript({ 'Sec-GPC': '1' });
      await page.goto(`${origin}/privacy-center/acme/`);
      const notice = page.getByRole('status').filter({ hasText: 'Opt-Out Request Honored' });
      assert.ok(await notice.isVisible());
      await inspect(page, 'oo-4-gpc');
      const form = page.getByRole('region', { name: 'Do not sell or share my personal information' });
      await form.getByLabel(OPT_OUT_LABELS.sensitive_use.label).check();
      await form.getByLabel('E-mail address').fill('jo@example.com');
      await form.getByRole('button', { name: 'Record my choice' }).click();
      await page.getByRole('heading', { name: 'Your choice is recorded' }).waitFor();
      const text = await page.locator('main').innerText();
      assert.match(text, /Opt-Out Request Honored/);
      assert.match(text, /Do not sell or share my personal information \(your browser’s Global Privacy Control signal\)\./);
      assert.match(text, /Limit the use of my sensitive personal information\. Takes effect now\./);
      await inspect(page, 'oo-5-gpc-recorded');
      const rows = await t.services.database.db
        .selectFrom('opt_outs')
        .select(['kind', 'source'])
        .where('subject_id', '=', 'jo@example.com')
        .execute();
      assert.deepEqual(rows.map((r) => `${r.kind}:${r.source}`).sort(), ['sale_sharing:gpc', 'sensitive_use:form']);
      assert.deepEqual(cspViolations, []);
      await context.close();
    });
  });
}
