/**
 * The page of a DRP request waiting for the person's code (PRODUCT §2.19 `need_user_verification`)
 * as a person uses it, in headless Chromium with JavaScript off: it names the agent and what it
 * asked, shows the address masked, sends nothing until "Send me a code" is pressed; a wrong code
 * says how many tries are left; the right one files and sends the person back to the agent's
 * `https://` page (or says it is done); a used link says there is nothing to confirm. Every page:
 * no serious or critical axe-core violation, no CSP refusal, no horizontal scroll at 1280 and 390
 * px. Screenshots in `.scratch/drp/` (`…-verify-*.png`).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { newestMail } from '../../helpers/center-outbox.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openChromium } from '../../helpers/chromium.js';
import { overflow, seriousViolations } from '../../helpers/center-page-checks.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { fixtureDrpAgent, TIMES } from '../../helpers/drp-agent.js';
import { joinDrpNetwork } from '../../helpers/drp-business.js';

const SCRATCH = new URL('../../../.scratch/drp/', import.meta.url);

for (const dialect of dialects()) {
  describe(`DRP verification page in a browser (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let browser: Browser;
    let scripted: Page;
    let token = '';
    let origin = '';
    const cspViolations: string[] = [];
    const agent = fixtureDrpAgent();
    const db = () => t.services.database.db;

    const inspect = async (page: Page, name: string) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        assert.deepEqual(await seriousViolations(page, scripted), [], `${name} at ${width}px`);
        assert.ok((await overflow(page)) <= 0, `${name} scrolls sideways at ${width}px`);
        await page.screenshot({ path: new URL(`${dialect.name}-verify-${name}-${width}.png`, SCRATCH).pathname, fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    };
    /** A signed deletion the person must confirm; @returns its `user_verification_url` on this server. */
    const waitingExercise = async (email: string): Promise<string> => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/drp/v1/data-rights-request',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        payload: agent.sign(agent.exerciseClaims('acme-retail', TIMES.fresh(new Date()), { email, email_verified: false })),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().reason, 'need_user_verification');
      const url = new URL(res.json().user_verification_url);
      return `${origin}${url.pathname}${url.search}`;
    };

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      await t.services.controllers.put('acme', { name: 'Acme Retail Inc.', contact_email: 'privacy@acme.example' }, 'test');
      const admin = await t.bearer(['admin'], ['acme']);
      token = await joinDrpNetwork(t, admin, agent, {
        agentName: 'Consumer Reports Permission Slip',
        businessName: 'Acme Retail',
      });
      browser = await openChromium();
      scripted = await (await browser.newContext()).newPage();
      mkdirSync(SCRATCH, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await t.close();
      await database.drop();
    });

    it('names the agent and the request, mails a code only when asked, and the right code files and goes back to the agent', async () => {
      const link = await waitingExercise('mia.jones@example.com');
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
      });
      const codes = async () =>
        (await db().selectFrom('privacy_center_mails').select('id').where('kind', '=', 'code').execute()).length;

      await page.goto(`${link}&redirect_to=${encodeURIComponent(`${origin}/healthz`)}`);
      await page.getByRole('heading', { name: 'Confirm a request your agent made' }).waitFor();
      const text = await page.locator('main').innerText();
      assert.match(text, /Consumer Reports Permission Slip, acting as your authorized agent, asked Acme Retail Inc\. to delete/);
      assert.match(text, /m•••@example\.com/);
      assert.doesNotMatch(text, /mia\.jones/);
      await inspect(page, '1-asked');
      await page.reload();
      assert.equal(await codes(), 0, 'opening the page (twice) mailed nothing');

      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByText('A code is on its way to m•••@example.com.').waitFor();
      assert.equal(await codes(), 1);
      await inspect(page, '2-code-sent');
      const { code } = await newestMail(t, 'code');
      await page.getByLabel('Code from the e-mail').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Confirm the request' }).click();
      await page.getByText('That code is not right. Tries left: 2.').waitFor();
      await inspect(page, '3-wrong-code');

      await page.getByLabel('Code from the e-mail').fill(code!);
      await page.getByRole('button', { name: 'Confirm the request' }).click();
      // The redirect to the agent's page (loopback allowed in this test): the service's own /healthz here.
      await page.waitForURL(`${origin}/healthz`);
      const filed = await db().selectFrom('privacy_requests').select(['filed_by', 'intake_ref']).execute();
      assert.equal(filed.length, 1);
      assert.equal(filed[0]!.filed_by, `agent:${agent.agentId}`);
      assert.match(filed[0]!.intake_ref, /^drp:/);

      await page.goto(link);
      await page.getByRole('heading', { name: 'Nothing to confirm here' }).waitFor();
      await inspect(page, '5-gone');
      await context.close();
    });

    it('without a redirect the page says the request is filed', async () => {
      const link = await waitingExercise('lou@example.com');
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(link);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      const { code } = await newestMail(t, 'code');
      await page.getByLabel('Code from the e-mail').fill(code!);
      await page.getByRole('button', { name: 'Confirm the request' }).click();
      await page.getByRole('heading', { name: 'Request confirmed' }).waitFor();
      await inspect(page, '4-filed');
      await context.close();
      assert.deepEqual(cspViolations, []);
    });
  });
}
