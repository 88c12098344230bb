/**
 * The readable letter (PRODUCT.md §2.11) as a person meets it: served by the app listening on
 * loopback, opened in headless Chromium (the browser's own Accept asks for HTML), looked at on
 * screen and in print preview (a PDF). It must load nothing but itself, run nothing, keep its
 * style under its CSP, show the subject's markup name as text, and, for a workspace under GDPR
 * and CCPA, the rights of both in plain words.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openChromium } from '../../helpers/chromium.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { answeredRequest, FULL_PROFILE, MARKUP_NAME, putProfile, seedLetterWorld } from '../../helpers/letters.js';

const SCRATCH = new URL('../../../.scratch/letters/', import.meta.url);

for (const dialect of dialects()) {
  describe(`readable letter in a browser (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let browser: Browser;
    let url: string;
    let reader: string;
    let email: string;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database);
      const admin = await t.bearer(['admin'], ['acme']);
      reader = await t.bearer(['privacy:read'], ['acme']);
      const world = await seedLetterWorld(t, 'acme');
      email = world.email;
      await putProfile(t, admin, 'acme', FULL_PROFILE);
      // Under both GDPR and CCPA (PRODUCT §2.13): the letter lists the rights of each, in plain words.
      await t.services.policies.putLayer('acme', null, { author_identity: 'full', regulations: ['gdpr', 'ccpa'] }, 'test');
      const id = await answeredRequest(t, admin, world);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as AddressInfo;
      url = `http://127.0.0.1:${port}/api/v1/privacy/requests/${id}/package`;
      browser = await openChromium();
    });
    after(async () => {
      await browser?.close();
      await t.close();
      await database.drop();
    });

    it('shows the letter, styled, loading and running nothing, on screen and in print', async () => {
      const context = await browser.newContext({
        extraHTTPHeaders: { authorization: reader },
        viewport: { width: 1000, height: 1400 },
      });
      const page = await context.newPage();
      const requests: string[] = [];
      const consoleMessages: string[] = [];
      let dialogs = 0;
      page.on('request', (request) => requests.push(request.url()));
      page.on('console', (message) => consoleMessages.push(message.text()));
      page.on('dialog', (dialog) => {
        dialogs++;
        void dialog.dismiss();
      });

      const response = await page.goto(url);
      assert.equal(response?.status(), 200);
      assert.match(String(response?.headers()['content-type']), /^text\/html/);
      assert.deepEqual(requests, [url], 'the letter loads nothing but itself');
      assert.deepEqual(consoleMessages, [], 'no CSP violation or other console message');
      assert.equal(dialogs, 0);
      assert.equal(await page.locator('script').count(), 0);
      // Its style applies under its CSP (the hash of its <style> element).
      // (expressions as strings: the tests are compiled without the DOM library)
      const mainWidth = await page.evaluate<string>("getComputedStyle(document.querySelector('main')).maxWidth");
      assert.notEqual(mainWidth, 'none');
      assert.match(await page.title(), /^Your personal data: answer to request pr_/);

      const screen = await page.innerText('body');
      for (const text of [
        'Your personal data held by Acme Software GmbH',
        MARKUP_NAME,
        email,
        'Your e-mail address',
        'Pull and merge requests you authored',
        'Your rights',
        'Under the EU General Data Protection Regulation (GDPR)',
        'Under the California Consumer Privacy Act (CCPA)',
        'Right to opt out of sale or sharing',
        'No retaliation',
      ])
        assert.ok(screen.includes(text), `the page does not show "${text}"`);
      for (const word of ['privacy:read', 'webhook', 'workspace'])
        assert.ok(!screen.toLowerCase().includes(word), `the page says "${word}"`);

      mkdirSync(SCRATCH, { recursive: true });
      const png = await page.screenshot({ fullPage: true });
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      writeFileSync(new URL(`access-letter-${dialect.name}.png`, SCRATCH), png);

      await page.emulateMedia({ media: 'print' });
      const printed = await page.innerText('body');
      for (const text of ['Who answers for your data', MARKUP_NAME, 'Berlin Commissioner for Data Protection', 'GDPR Art. 77'])
        assert.ok(printed.includes(text), `print preview does not show "${text}"`);
      const pdf = await page.pdf({ format: 'A4', printBackground: true });
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
      assert.ok(pages.length >= 1 && pages.length <= 6, `${pages.length} pages`);
      writeFileSync(new URL(`access-letter-${dialect.name}.pdf`, SCRATCH), pdf);
      await context.close();
    });
  });
}
