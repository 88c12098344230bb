/**
 * The web console (PRODUCT.md §2b) as a privacy officer uses it: the real app on a real database,
 * listening on loopback, driven in headless Chromium. Sign in with a pasted token, find the
 * overdue request, extend it with a reason, approve a request another token filed, see a refusal
 * in the API's words, open a letter, edit a repository policy and read the effective result,
 * rotate an endpoint secret, be sent back to sign-in on a 401. Every view: no serious or critical
 * axe-core violation, no horizontal scroll at 1280 and 390 px. The main flow by keyboard alone.
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

/** Presses Tab until the focused element matches `selector` (at most `max` presses). */
async function tabTo(page: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate<boolean>(`!!document.activeElement && document.activeElement.matches(${JSON.stringify(selector)})`))
      return;
  }
  assert.fail(`Tab never reached ${selector}`);
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}

const horizontalOverflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
/** The elements that reach past the right edge (for the failure message). */
const widest = (page: Page) =>
  page.evaluate<string>(
    "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right).slice(0, 8).join('; ')",
  );

for (const dialect of dialects()) {
  describe(`web console in a browser (${dialect.name})`, () => {
    let database: TestDatabase;
    let world: ConsoleWorld;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const cspViolations: string[] = [];

    const showQueue = async (p: Page, workspace: string, overdue = false) => {
      await p.getByRole('textbox', { name: 'Workspace', exact: true }).first().fill(workspace);
      if (overdue) await p.getByLabel('Overdue only').check();
      await p.getByRole('button', { name: 'Apply filters' }).click();
    };

    before(async () => {
      database = await dialect.create();
      world = await openConsoleWorld(database);
      browser = await openChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
      });
      mkdirSync(SCRATCH, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await world?.t.close();
      await database.drop();
    });

    it('signs in with a pasted token, refusing an unknown one, and keeps it in sessionStorage only', async () => {
      await page.goto(`${world.origin}/console/`);
      await page.getByLabel('API token').fill('pcs_not-a-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('The service does not know this token').waitFor();
      assert.deepEqual(await seriousViolations(page), [], 'sign-in page');
      await page.getByLabel('API token').fill(world.officerToken);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
      const stored = await page.evaluate<string>(
        'JSON.stringify([Object.values(sessionStorage), localStorage.length, document.cookie])',
      );
      assert.deepEqual(JSON.parse(stored), [[world.officerToken], 0, '']);
    });

    it('lists every workspace of the token, finds a subject by id, masked until opened', async () => {
      // Open requests by due date are the default (PRODUCT §2.16); any status shows the completed too.
      await page.locator('#filter-status').selectOption('');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('row').filter({ hasText: world.answeredId }).waitFor();
      const text = await page.innerText('table.queue');
      for (const id of [world.overdueId, world.pendingId, world.answeredId, world.taskedId]) assert.ok(text.includes(id), id);
      for (const workspace of ['acme', 'beta', 'gamma']) assert.match(text, new RegExp(`\\b${workspace}\\b`));
      writeFileSync(new URL(`queue-${dialect.name}.png`, SCRATCH), await page.screenshot({ fullPage: true }));
      await page.locator('#filter-subject-id').fill('pending-subject-0815');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('1 request shown').waitFor();
      assert.match(
        await page.getByRole('row').nth(1).innerText(),
        new RegExp(`${world.pendingId}\\s+access\\s+beta\\s+pending approval`),
      );
      assert.equal((await page.innerText('table.queue')).includes('pending-subject-0815'), false, 'the row masks the subject');
      // The API's 422 appears next to the field it names (no client rule for this length).
      await page.locator('#filter-subject-provider').fill('x'.repeat(101));
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.locator('#filter-subject-provider-error').waitFor();
      assert.equal(await page.locator('#filter-subject-provider-error').innerText(), 'String should have at most 100 characters');
      assert.equal(await page.locator('#filter-subject-provider').getAttribute('aria-invalid'), 'true');
      await page.locator('#filter-subject-provider').fill('');
      await page.locator('#filter-subject-id').fill('');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('4 requests shown').waitFor();
      await page.locator('#filter-subject-id').fill('');
    });

    it('files a request with an Idempotency-Key; a double click files it once', async () => {
      await page.getByText('File a new request').click();
      await page.locator('#new-workspace_id').fill('acme');
      await page.locator('#new-subject_provider').fill('github');
      await page.locator('#new-subject_id').fill('filed-in-console-77');
      await page.locator('#new-intake_ref').fill('https://support.example.com/tickets/77');
      await page.getByRole('button', { name: 'File request' }).dblclick();
      const filed = page.getByRole('status').filter({ hasText: /^Filed pr_/ });
      await filed.waitFor();
      const list = await world.t.app.inject({
        url: '/api/v1/privacy/requests?subject_id=filed-in-console-77',
        headers: { authorization: world.intake },
      });
      assert.equal(list.statusCode, 200, list.body);
      assert.equal(list.json().items.length, 1, 'one request for two clicks');
      assert.ok((await filed.innerText()).includes(list.json().items[0].id));
      await page.getByText('File a new request').click();
    });

    it('finds the overdue request in the queue, subject masked until opened', async () => {
      await showQueue(page, '', true);
      await page.getByText('1 request shown').waitFor();
      const row = page.getByRole('row').filter({ hasText: world.overdueId });
      assert.equal(await page.getByRole('row').count(), 2, 'the header and the one overdue request, across workspaces');
      const filed = await world.t.app.inject({
        url: `/api/v1/privacy/requests/${world.overdueId}`,
        headers: { authorization: world.intake },
      });
      const daysOverdue = Math.ceil((Date.now() - Date.parse(filed.json().due_at)) / 86_400_000);
      assert.ok(daysOverdue >= 28 && daysOverdue <= 32, `${daysOverdue}`);
      assert.ok((await row.innerText()).includes(`${daysOverdue} days overdue (GDPR)`), await row.innerText());
      assert.match(await row.innerText(), /github: •+/);
      assert.ok(!(await page.innerText('body')).includes('overdue-subject-4711'), 'the queue masks the subject');
      await row.getByRole('link', { name: world.overdueId }).click();
      await page.getByRole('heading', { level: 1, name: `Request ${world.overdueId}` }).waitFor();
      await page.getByText('github: overdue-subject-4711').waitFor(); // opened, the subject shows
    });

    it('offers no extension for the overdue request (its deadline has passed: PRODUCT §2.13)', async () => {
      await page.getByText('The deadline has passed, so it can no longer be extended').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Extend deadline' }).count(), 0, 'no extension offered');
    });

    it('extends a request in time with a reason (asked for before anything is sent)', async () => {
      await page.goto(`${world.origin}/console/#/requests/${world.pendingId}`);
      await page.getByRole('heading', { level: 1, name: `Request ${world.pendingId}` }).waitFor();
      await page.getByRole('button', { name: 'Extend deadline' }).click();
      await page.getByRole('button', { name: 'Confirm: extend deadline' }).click();
      await page.getByText('Give a reason').waitFor();
      await page.getByLabel(/^Reason/).fill('Complex request: several systems hold data (Art. 12(3))');
      await page.getByRole('button', { name: 'Confirm: extend deadline' }).click();
      await page.getByText('Extend deadline: done.').waitFor();
      const extended = page
        .getByRole('region', { name: 'Timeline' })
        .getByRole('listitem')
        .filter({ hasText: /^extended/ });
      await extended.waitFor();
      assert.match(
        await extended.innerText(),
        /extended by officer \(token\).*\n?Reason: Complex request: several systems hold data \(Art\. 12\(3\)\)/s,
      );
      const stored = await world.t.app.inject({
        url: `/api/v1/privacy/requests/${world.pendingId}`,
        headers: { authorization: world.intake },
      });
      assert.notEqual(stored.json().extended_due_at, null);
      assert.equal(stored.json().status, 'pending_approval');
      assert.equal(
        await page.getByRole('button', { name: 'Extend deadline' }).count(),
        0,
        'extended once: no second extension offered',
      );
      assert.doesNotMatch(await page.innerText('main'), /not extended/);
      writeFileSync(new URL(`request-${dialect.name}.png`, SCRATCH), await page.screenshot({ fullPage: true }));
      await page.goto(`${world.origin}/console/#/requests/${world.overdueId}`);
      await page.getByRole('heading', { level: 1, name: `Request ${world.overdueId}` }).waitFor();
    });

    it("shows the API's refusal when the request changed meanwhile (409)", async () => {
      // The officer sees the overdue request (its own fields loaded, not only its heading)...
      await page.locator('p.deadline.overdue').waitFor();
      await page.getByRole('button', { name: 'Cancel request' }).waitFor();
      // ...and someone else cancels it while the officer looks at it.
      const cancel = await world.t.app.inject({
        method: 'POST',
        url: `/api/v1/privacy/requests/${world.overdueId}/cancel`,
        headers: { authorization: world.intake },
        payload: { reason: 'duplicate of another ticket' },
      });
      assert.equal(cancel.statusCode, 200, cancel.body);
      await page.getByRole('button', { name: 'Cancel request' }).click();
      await page.getByLabel(/^Reason/).fill('No longer needed');
      await page.getByRole('button', { name: 'Confirm: cancel request' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /\(409\)$/);
    });

    it('approves a request another token filed', async () => {
      await page.goto(`${world.origin}/console/#/requests/${world.pendingId}`);
      await page.getByText('pending approval', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('button', { name: 'Confirm: approve' }).click();
      await page.getByText('Approve: done. Status is now queued.').waitFor();
    });

    it('marks a manual data task done with counts, data from a CSV file and a note; the note shows on the task and in the timeline', async () => {
      await page.goto(`${world.origin}/console/#/requests/${world.taskedId}`);
      const tasks = page.getByRole('region', { name: 'Data tasks' });
      await tasks.getByText(/CRM \(by hand\) \(crm-manual\) \(user\): pending/).waitFor();
      await tasks.getByRole('button', { name: 'Mark done…' }).click();
      await tasks.getByLabel('Note (what was done; recorded)').fill('3 tickets found');
      // Completed without saying what the system holds: the API's 422 in its words (PRODUCT §2.13).
      await tasks.getByRole('button', { name: 'Confirm the result' }).click();
      const refusal = tasks.getByRole('alert');
      await refusal.waitFor();
      assert.match(await refusal.innerText(), /\(422\).*carries data or records/);
      // A file over 1 MiB is refused before anything is sent.
      const file = tasks.getByLabel('Or read the data from a file (JSON or CSV)');
      await file.setInputFiles({ name: 'huge.json', mimeType: 'application/json', buffer: Buffer.alloc(1024 * 1024 + 1, 32) });
      await tasks.getByText(/The data is 1\.0 MiB; at most 1 MiB \(1,048,576 bytes\) can be attached/).waitFor();
      await file.setInputFiles({
        name: 'tickets.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('id,subject\r\n101,"Refund, please"\r\n102,Login fails\r\n'),
      });
      const data = tasks.getByLabel('Data (JSON: data category → what the system holds)');
      await page.waitForFunction(`document.querySelector('textarea[id^="data-"]')?.value.includes('Login fails')`);
      assert.deepEqual(JSON.parse(await data.inputValue()), {
        user: [
          { id: '101', subject: 'Refund, please' },
          { id: '102', subject: 'Login fails' },
        ],
      });
      // Categories in plain words (PRODUCT §2.21), the key beside them.
      await tasks.getByLabel('Personal data (user)').fill('3');
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        assert.deepEqual(await seriousViolations(page), [], `Mark done form at ${width} px`);
        assert.equal(await horizontalOverflow(page), 0, await widest(page));
        writeFileSync(new URL(`mark-done-${width}-${dialect.name}.png`, SCRATCH), await tasks.screenshot());
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await tasks.getByRole('button', { name: 'Confirm the result' }).click();
      await tasks.getByText(/CRM \(by hand\) \(crm-manual\) \(user\): completed/).waitFor();
      await tasks.getByText('Records found: user: 3').waitFor();
      await tasks.getByText('Note: 3 tickets found').waitFor();
      await page.getByRole('region', { name: 'Timeline' }).getByText('Note: 3 tickets found').waitFor();
      await page.getByRole('region', { name: 'Details' }).getByText('completed', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Open the letter (new tab)' }).waitFor();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        writeFileSync(new URL(`task-done-${width}-${dialect.name}.png`, SCRATCH), await page.screenshot({ fullPage: true }));
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      const letter = await world.t.app.inject({
        url: `/api/v1/privacy/requests/${world.taskedId}/package?format=html`,
        headers: { authorization: `Bearer ${world.officerToken}` },
      });
      assert.equal(letter.statusCode, 200, letter.body);
      assert.doesNotMatch(letter.body, /holds no data/);
      assert.match(letter.body, /Refund, please/);
      assert.match(letter.body, /Records it holds about you: Personal data: 3\./);
    });

    it('shows the audit chain verified to an admin of every workspace, and says why to an admin of some', async () => {
      // One chain over the whole service: only a `*` admin may verify it (issue 23, item 7).
      await page.goto(`${world.origin}/console/#/audit`);
      await page.getByText('it needs an admin token for every workspace (*)').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Verify again' }).count(), 0);
      const everywhere = await world.t.services.tokens.create({
        name: 'dpo',
        scopes: ['admin'],
        workspaces: ['*'],
        actor: 'test',
      });
      const dpo = await context.newPage();
      try {
        await dpo.goto(`${world.origin}/console/`);
        await dpo.evaluate('sessionStorage.clear()');
        await dpo.reload();
        await dpo.getByLabel('API token').fill(everywhere.token);
        await dpo.getByRole('button', { name: 'Sign in' }).click();
        await dpo.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
        await dpo.goto(`${world.origin}/console/#/audit`);
        const status = dpo.getByRole('status').filter({ hasText: 'Intact' });
        await status.waitFor();
        assert.match(await status.innerText(), /^Intact: all \d+ entries verify/);
      } finally {
        await dpo.close();
      }
    });

    it('opens the readable letter of a completed access request in a new tab', async () => {
      await page.goto(`${world.origin}/console/#/requests/${world.answeredId}`);
      const [letter] = await Promise.all([
        context.waitForEvent('page'),
        page.getByRole('button', { name: 'Open the letter (new tab)' }).click(),
      ]);
      await letter.waitForURL(/^blob:/);
      await letter.getByText('Your personal data held by').first().waitFor();
      // Isolated (issue 23, item 8): the console's tab holds the token in its sessionStorage; the
      // letter's tab has none of it and no way back to the console.
      assert.ok(
        (await page.evaluate<number>('sessionStorage.length')) > 0,
        "the console's sessionStorage is empty: nothing to protect",
      );
      assert.equal(await letter.evaluate<number>('sessionStorage.length'), 0, "the letter reads the console's sessionStorage");
      assert.equal(await letter.evaluate<boolean>('window.opener === null'), true, 'the letter has an opener');
      assert.equal(await letter.evaluate<string>('document.referrer'), '');
      const mainWidth = await letter.evaluate<string>("getComputedStyle(document.querySelector('main')).maxWidth");
      assert.notEqual(mainWidth, 'none', "the letter's own style applies under the console's CSP");
      assert.equal(await letter.locator('script').count(), 0);
      await letter.close();
    });

    it('edits a repository policy with validation and shows the effective result with its sources', async () => {
      await page.goto(`${world.origin}/console/#/policies`);
      await page.getByRole('textbox', { name: 'Workspace', exact: true }).fill('acme');
      await page.getByLabel('Repository', { exact: true }).fill('acme/api');
      await page.getByRole('button', { name: 'Show' }).click();
      const repoLayer = page.getByRole('region', { name: 'Repository layer: acme/api' });
      await repoLayer.getByText('No layer here yet').waitFor();
      await repoLayer.getByLabel('Retention (days)').fill('5000');
      await repoLayer.getByRole('button', { name: 'Save layer' }).click();
      await repoLayer.getByText('A whole number of days from 1 to 3650').waitFor();
      await repoLayer.getByLabel('Retention (days)').fill('7');
      await repoLayer.getByLabel('Repeat window (days)').fill('400');
      await repoLayer.getByRole('button', { name: 'Save layer' }).click();
      await repoLayer.getByText('A whole number of days from 0 to 365').waitFor();
      await repoLayer.getByLabel('Repeat window (days)').fill('30');
      await repoLayer.getByRole('button', { name: 'Save layer' }).click();
      await repoLayer.getByText('Saved: version').waitFor();
      const effective = page.getByRole('region', { name: 'Effective policy' });
      const retention = effective.getByRole('row', { name: /retention_days/ });
      await retention.getByText('repository').waitFor();
      assert.match(await retention.innerText(), /retention_days\s+7\s+repository/);
      assert.match(
        await effective.getByRole('row', { name: /repeat_window_days/ }).innerText(),
        /repeat_window_days\s+30\s+repository/,
      );
      assert.match(await effective.getByRole('row', { name: /author_identity/ }).innerText(), /full\s+workspace/);
    });

    it('rotates a webhook endpoint secret and lists its messages', async () => {
      await page.goto(`${world.origin}/console/#/connections`);
      const endpoint = page.getByRole('listitem').filter({ hasText: 'http://127.0.0.1:9/hook' });
      await endpoint.getByRole('button', { name: 'Messages' }).click();
      await endpoint
        .getByText(/No message yet|attempt/)
        .first()
        .waitFor();
      await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
      await endpoint.getByRole('button', { name: 'Confirm: rotate the secret' }).click();
      const secret = await endpoint.locator('code.secret').innerText();
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.notEqual(secret, world.endpointSecret);
    });

    it('has no serious or critical axe violation and no horizontal scroll on any view, at 1280 and 390 px', async () => {
      const views: [string, () => Promise<void>][] = [
        // Open requests (the default): the approved one and the one filed here.
        ['queue', async () => void (await page.getByRole('row').nth(2).waitFor())],
        [`requests/${world.answeredId}`, async () => void (await page.getByRole('heading', { name: 'Results' }).waitFor())],
        [
          'policies',
          async () => {
            await page.getByRole('textbox', { name: 'Workspace', exact: true }).fill('acme');
            await page.getByLabel('Repository', { exact: true }).fill('acme/api');
            await page.getByRole('button', { name: 'Show' }).click();
            await page.getByRole('region', { name: 'Effective policy' }).getByRole('table').waitFor();
          },
        ],
        ['connections', async () => void (await page.getByText('http://127.0.0.1:9/hook').waitFor())],
        // The officer is an admin of three workspaces: the trail, and why it cannot verify the chain.
        ['audit', async () => void (await page.getByText('it needs an admin token for every workspace (*)').waitFor())],
      ];
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [hash, ready] of views) {
          await page.goto(`${world.origin}/console/#/${hash}`);
          await page.getByRole('heading', { level: 1 }).waitFor();
          await ready();
          writeFileSync(
            new URL(`${hash.replace(/\W+/g, '-')}-${width}-${dialect.name}.png`, SCRATCH),
            await page.screenshot({ fullPage: true }),
          );
          assert.deepEqual(await seriousViolations(page), [], `${hash} at ${width} px`);
          const overflow = await horizontalOverflow(page);
          assert.ok(overflow <= 0, `${hash} scrolls sideways at ${width} px by ${overflow} px: ${await widest(page)}`);
          if (width === 390 && hash === 'queue')
            writeFileSync(new URL(`queue-390-${dialect.name}.png`, SCRATCH), await page.screenshot({ fullPage: true }));
        }
      }
      assert.deepEqual(cspViolations, [], 'no CSP violation on any page');
    });

    it('walks the main flow with the keyboard alone', async () => {
      const keyboard = await context.newPage();
      await keyboard.setViewportSize({ width: 1280, height: 900 });
      await keyboard.goto(`${world.origin}/console/`);
      await keyboard.evaluate('sessionStorage.clear()');
      await keyboard.reload();
      await tabTo(keyboard, '#token');
      await keyboard.keyboard.type(world.officerToken);
      await keyboard.keyboard.press('Enter');
      await keyboard.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
      await tabTo(keyboard, '#filter-workspace');
      await keyboard.keyboard.type('beta');
      await keyboard.keyboard.press('Enter');
      await keyboard.getByRole('row').filter({ hasText: world.pendingId }).waitFor();
      await tabTo(keyboard, `a[href="#/requests/${world.pendingId}"]`);
      await keyboard.keyboard.press('Enter');
      await keyboard.getByRole('heading', { level: 1, name: `Request ${world.pendingId}` }).waitFor();
      // Focus moves to the new view's heading (a screen reader announces it).
      // A locator, not waitForFunction: a string predicate is eval'd in the page, which the
      // console's CSP (script-src 'self') refuses once the first check has not already passed.
      await keyboard.locator('h1:focus').waitFor({ timeout: 3000 });
      await tabTo(keyboard, 'a[href="#/policies"]');
      await keyboard.keyboard.press('Enter');
      await keyboard.getByRole('heading', { level: 1, name: 'Policies' }).waitFor();
      await keyboard.close();
    });

    it('sends the officer back to sign-in with a clear message when the token stops working (401)', async () => {
      assert.ok(await world.t.services.tokens.revoke(world.officerTokenId, 'test'));
      await page.goto(`${world.origin}/console/#/queue`);
      await page
        .getByRole('heading', { level: 1, name: 'Privacy console' })
        .waitFor({ timeout: 5000 })
        .catch(async (error) => {
          console.log(await page.innerText('body'));
          throw error;
        });
      assert.match(await page.getByRole('status').innerText(), /refused the token.*Sign in again/);
      assert.equal(await page.evaluate<number>('Object.keys(sessionStorage).filter((k) => k.endsWith("token")).length'), 0);
    });
  });
}
