/**
 * The privacy center as a person uses it (PRODUCT §2.15), in headless Chromium with JavaScript
 * off: fill the form, read the code from the mail a real SMTP receiver got, verify, open the
 * status link from the next mail. Every page: no serious or critical axe-core violation, no CSP
 * refusal, no horizontal scroll at 1280 and 390 px; on the form, every request type's words whole
 * (issue 33 item 8: a `<select>` cut them at 390 px). A code used up by wrong tries leads back to
 * the form. Screenshots in `.scratch/privacy-center/`.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { type MailLoop, startMailLoop } from '../../../src/jobs/mail-delivery-loop.js';
import { createMailer, type Mailer } from '../../../src/modules/privacy-center/mailer.js';
import { TYPE_LABELS } from '../../../src/http/privacy-center/center-layout.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openChromium } from '../../helpers/chromium.js';
import { overflow, seriousViolations } from '../../helpers/center-page-checks.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../helpers/smtp-receiver.js';

const SCRATCH = new URL('../../../.scratch/privacy-center/', import.meta.url);

/**
 * axe-core runs scripts in the page, which the no-JavaScript context refuses: it checks the same
 * document in a scripted page of the same origin instead.
 */
/**
 * The request types whose words are not shown whole at the page's width: each must be a visible
 * element holding exactly its words, not wider than its box (scrollWidth <= clientWidth) and
 * inside the main landmark. An `<option>` of a closed `<select>` is not visible: it fails too.
 */
async function clippedTypes(page: Page, types: readonly string[]): Promise<string[]> {
  const clipped: string[] = [];
  const main = (await page.locator('main').boundingBox())!;
  for (const type of types) {
    const words = TYPE_LABELS[type]!;
    const label = page.locator('form label', { hasText: words });
    const box = (await label.count()) === 1 && (await label.isVisible()) ? await label.boundingBox() : null;
    const fits = await label.evaluateAll((els) => els.length === 1 && els[0]!.scrollWidth <= els[0]!.clientWidth);
    if (!box || !fits || box.x < main.x || box.x + box.width > main.x + main.width) clipped.push(words);
  }
  return clipped;
}

for (const dialect of dialects()) {
  describe(`privacy center in a browser (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let receiver: SmtpReceiver;
    let mailer: Mailer;
    let loop: MailLoop;
    let browser: Browser;
    let origin = '';
    let scripted: Page;
    const cspViolations: string[] = [];

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
      receiver = await startSmtpReceiver();
      t = await startTestApp(database, {
        env: { SMTP_URL: receiver.url, SMTP_FROM: 'privacy@acme.example', PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0' },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      await t.services.controllers.put(
        'acme',
        {
          name: 'Acme GmbH',
          contact_email: 'privacy@acme.example',
          supervisory_authority: { name: 'Berlin Commissioner for Data Protection', url: 'https://www.datenschutz-berlin.de/' },
        },
        'test',
      );
      await t.services.privacyCenter.put('acme', { enabled: true, request_types: ['access', 'export', 'deletion'] }, 'test');
      mailer = createMailer(receiver.url, 'privacy@acme.example');
      loop = startMailLoop({
        db: t.services.database.db,
        clock: t.services.clock,
        mailer,
        controllers: t.services.controllers,
        secretBox: t.services.secretBox,
        publicBaseUrl: origin,
        pollMs: 50,
        log: pino({ level: 'silent' }),
      });
      browser = await openChromium();
      mkdirSync(SCRATCH, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await loop?.stop();
      mailer?.close();
      await t.close();
      await receiver.close();
      await database.drop();
    });

    it('files by form without JavaScript, verifies with the mailed code and opens the status link', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      scripted = await (await browser.newContext()).newPage();
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
      });
      await page.goto(`${origin}/privacy-center/acme/`);
      await inspect(page, '1-form');
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        assert.deepEqual(await clippedTypes(page, ['access', 'export', 'deletion']), [], `request types cut at ${width}px`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('group', { name: 'What would you like to do?' }).getByLabel('Delete my personal data').check();
      await page.getByLabel('Your e-mail address').fill('ida@example.com');
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByLabel('Code from the e-mail').waitFor();
      await inspect(page, '2-code');

      const [codeMail] = await receiver.waitFor(1);
      assert.deepEqual(codeMail!.to, ['ida@example.com']);
      const code = /Your code is ([0-9]{6})\./.exec(codeMail!.text)![1]!;
      // A wrong code first: the page says how many tries are left.
      await page.getByLabel('Code from the e-mail').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Confirm my request' }).click();
      await page.getByRole('alert').waitFor();
      assert.match(await page.getByRole('alert').innerText(), /2 attempts left/);
      await inspect(page, '3-wrong-code');
      await page.getByLabel('Code from the e-mail').fill(code);
      await page.getByRole('button', { name: 'Confirm my request' }).click();
      await page.getByRole('heading', { name: 'Your request is filed' }).waitFor();
      await inspect(page, '4-filed');

      const mails = await receiver.waitFor(2);
      const link = /(http:\/\/127\.0\.0\.1:\d+\/privacy-center\/acme\/status\/pr_[0-9A-Z]{26}\?token=[A-Za-z0-9_-]{43})/.exec(
        mails[1]!.text,
      )?.[1];
      assert.ok(link, mails[1]!.text);
      await page.goto(link);
      await page.getByRole('heading', { name: 'Your request' }).waitFor();
      const text = await page.locator('main').innerText();
      assert.match(text, /Delete my personal data/);
      assert.match(text, /Received/);
      assert.match(text, /Answer due by/);
      await inspect(page, '5-status');
      assert.deepEqual(cspViolations, []);
      await context.close();
    });

    it('a code used up by three wrong tries says so in plain words and links back to the form', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${origin}/privacy-center/acme/`);
      await page.getByLabel('See the personal data you hold about me').check();
      await page.getByLabel('Your e-mail address').fill('jo@example.com');
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByLabel('Code from the e-mail').waitFor();
      const mails = await receiver.waitFor(3);
      const code = /Your code is ([0-9]{6})\./.exec(mails[2]!.text)![1]!;
      const wrong = code === '000000' ? '111111' : '000000';
      for (let tries = 0; tries < 3; tries++) {
        await page.getByLabel('Code from the e-mail').fill(wrong);
        await page.getByRole('button', { name: 'Confirm my request' }).click();
        await page.waitForLoadState();
      }
      await page.getByRole('heading', { name: 'Your code no longer works' }).waitFor();
      const text = await page.locator('main').innerText();
      assert.match(text, /used up/);
      assert.doesNotMatch(text, /on its way/);
      assert.equal(await page.getByLabel('Code from the e-mail').count(), 0, 'no code field on a dead end');
      await inspect(page, '6-code-used-up');
      await page.getByRole('link', { name: 'Start again and get a new code' }).click();
      await page.getByRole('button', { name: 'Send me a code' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/privacy-center/acme/');
      assert.deepEqual(cspViolations, []);
      await context.close();
    });
  });
}
