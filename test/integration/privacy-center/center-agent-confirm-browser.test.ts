/**
 * The person's confirmation page of the privacy center's agent path (PRODUCT §2.19, 11 CCR
 * §7063(a)) as a person uses it, in headless Chromium with JavaScript off: the page names the
 * agent, the request and the controller, and opening it files nothing; "Yes, I asked them" files
 * the request, "I did not" files nothing; a used link says so. Every page: no serious or critical
 * axe-core violation, no CSP refusal, no horizontal scroll at 1280 and 390 px. Screenshots in
 * `.scratch/privacy-center/` (`…-agent-*.png`).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { MailPayload } from '../../../src/modules/privacy-center/mail-outbox.repository.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openChromium } from '../../helpers/chromium.js';
import { overflow, seriousViolations } from '../../helpers/center-page-checks.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';

const SCRATCH = new URL('../../../.scratch/privacy-center/', import.meta.url);

for (const dialect of dialects()) {
  describe(`privacy center agent confirmation in a browser (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let browser: Browser;
    let origin = '';
    let scripted: Page;
    const cspViolations: string[] = [];
    const db = () => t.services.database.db;

    const noScript = async (): Promise<{ context: BrowserContext; page: Page }> => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
      });
      return { context, page };
    };
    const inspect = async (page: Page, name: string) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        assert.deepEqual(await seriousViolations(page, scripted), [], `${name} at ${width}px`);
        assert.ok((await overflow(page)) <= 0, `${name} scrolls sideways at ${width}px`);
        await page.screenshot({ path: new URL(`${dialect.name}-${name}-${width}.png`, SCRATCH).pathname, fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    };
    /** The newest outbox mail of `kind`, its sealed parts opened as the mail loop opens them. */
    const newest = async (kind: string): Promise<MailPayload> => {
      const row = await db()
        .selectFrom('privacy_center_mails')
        .select('payload')
        .where('kind', '=', kind)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const payload = JSON.parse(row.payload) as MailPayload;
      if (payload.code_sealed) payload.code = t.services.secretBox.open(payload.code_sealed);
      if (payload.confirm_sealed) payload.confirm_token = t.services.secretBox.open(payload.confirm_sealed);
      return payload;
    };
    /** An agent submits and verifies through the JSON API; @returns the person's confirmation link. */
    const linkForPerson = async (agentEmail: string): Promise<string> => {
      const submitted = await t.app.inject({
        method: 'POST',
        url: '/privacy-center/v1/acme/agent-requests',
        payload: {
          request_type: 'access',
          agent_email: agentEmail,
          agent_name: 'Consumer Rights Agency of Northern California, Inc.',
          subject_email: 'mia@example.com',
          proof_ref: 'permission-2026-118',
        },
      });
      assert.equal(submitted.statusCode, 202, submitted.body);
      const { code } = await newest('code');
      const verified = await t.app.inject({
        method: 'POST',
        url: `/privacy-center/v1/acme/agent-requests/${submitted.json().id}/verify`,
        payload: { code },
      });
      assert.equal(verified.statusCode, 200, verified.body);
      const mail = await newest('agent_confirm');
      return `${origin}/privacy-center/acme/agent-requests/${mail.agent_submission_id}/confirm?token=${mail.confirm_token}`;
    };
    const requests = () => db().selectFrom('privacy_requests').select(['id', 'filed_by', 'intake_ref']).execute();

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, {
        env: { PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE: '0', PRIVACY_CENTER_CODES_PER_HOUR: '0' },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      await t.services.controllers.put('acme', { name: 'Acme GmbH', contact_email: 'privacy@acme.example' }, 'test');
      await t.services.privacyCenter.put(
        'acme',
        { enabled: true, request_types: ['access', 'deletion'], agent_requests: true },
        'test',
      );
      browser = await openChromium();
      scripted = await (await browser.newContext()).newPage();
      mkdirSync(SCRATCH, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await t.close();
      await database.drop();
    });

    it('the page names who asks what and of whom, decides nothing when opened, and "Yes, I asked them" files', async () => {
      const link = await linkForPerson('desk@agency.example');
      const { context, page } = await noScript();
      await page.goto(link);
      await page.getByRole('heading', { name: 'Did you ask them to make this request?' }).waitFor();
      const text = await page.locator('main').innerText();
      assert.match(text, /Consumer Rights Agency of Northern California, Inc\. says you asked them/);
      assert.match(text, /See the personal data you hold about me/);
      assert.match(text, /Acme GmbH/);
      assert.doesNotMatch(text, /mia@example\.com|desk@agency/);
      await inspect(page, 'agent-1-confirm');
      await page.reload();
      assert.equal((await requests()).length, 0, 'opening the page (twice) filed nothing');

      await page.getByRole('button', { name: 'Yes, I asked them' }).click();
      await page.getByRole('heading', { name: 'Your request is filed' }).waitFor();
      assert.doesNotMatch(page.url(), /token=/, 'the answer posted the token in the body, not in the address');
      await inspect(page, 'agent-2-filed');
      const filed = await requests();
      assert.equal(filed.length, 1);
      assert.equal(filed[0]!.intake_ref, 'privacy-center:agent');
      assert.match(filed[0]!.filed_by ?? '', /^agent:[0-9a-f]{64}$/);

      await page.goto(link);
      await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
      await inspect(page, 'agent-4-used');
      await context.close();
    });

    it('"I did not" files nothing and says so', async () => {
      const link = await linkForPerson('other@agency.example');
      const { context, page } = await noScript();
      await page.goto(link);
      await page.getByRole('button', { name: 'I did not' }).click();
      await page.getByRole('heading', { name: 'Nothing was filed' }).waitFor();
      await inspect(page, 'agent-3-declined');
      assert.equal((await requests()).length, 1, 'only the first test’s request');
      assert.equal((await db().selectFrom('privacy_center_agent_submissions').select('id').execute()).length, 0);
      await context.close();
      assert.deepEqual(cspViolations, []);
    });
  });
}
