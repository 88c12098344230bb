/**
 * Database data systems in the web console (PRODUCT.md §2b, §2.14), in headless Chromium: the
 * Connections page shows each database system's kind and dataset summary; **Test connection**
 * shows reachability, latency and each collection's state; **Preview for a person** shows the
 * planned statements with their row counts and no values. A PostgreSQL and a MariaDB target;
 * no serious axe-core violation and no horizontal scroll at 1280 and 390 px (screenshots in
 * .scratch/console/).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { openChromium } from '../../helpers/chromium.js';
import { builtConsole } from '../../helpers/console-build.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

const SCRATCH = new URL('../../../.scratch/console/', import.meta.url);
// In key order (shop-mysql, shop-postgres): the order the page lists them.
const kinds = (await targetKinds())
  .filter((k) => !k.skip)
  .map((k) => k.kind)
  .sort();
/** The shop dataset under another fides_key (two systems in one workspace). */
const datasetAs = (key: string) =>
  (
    parse(
      SHOP_DATASET_YAML.replaceAll('dataset: shop', `dataset: ${key}`)
        .replaceAll('shop.', `${key}.`)
        .replace('fides_key: shop', `fides_key: ${key}`),
    ) as {
      dataset: unknown[];
    }
  ).dataset[0];

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}
const overflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

for (const dialect of dialects()) {
  describe(`console: database data systems (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let origin: string;
    let token: string;
    let browser: Browser;
    let page: Page;
    const targets: ShopTarget[] = [];

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { consoleDir: await builtConsole(), env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1' } });
      token = (await t.services.tokens.create({ name: 'officer', scopes: ['admin'], workspaces: ['acme'], actor: 'test' })).token;
      for (const kind of kinds) {
        const target = await createShopTarget(kind);
        targets.push(target);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/data-systems',
          headers: { authorization: `Bearer ${token}` },
          payload: {
            workspace_id: 'acme',
            key: `shop-${kind}`,
            name: `Shop (${kind})`,
            kind,
            connection: { url: target.url },
            dataset: datasetAs(`shop_${kind}`),
          },
        });
        assert.equal(res.statusCode, 201, res.body);
      }
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      browser = await openChromium();
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      mkdirSync(SCRATCH, { recursive: true });
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await database?.drop();
      for (const target of targets) await target.drop();
    });

    it('shows each database system with its kind and dataset summary, a test result and a preview for a subject', async () => {
      await page.goto(`${origin}/console/`);
      await page.getByLabel('API token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
      await page.getByRole('link', { name: 'Connections' }).click();
      await page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
      const systems = page
        .locator('section', { has: page.getByRole('heading', { name: 'Data systems' }) })
        .locator('li.endpoint');
      await systems.first().waitFor();
      assert.equal(await systems.count(), kinds.length);
      for (const [i, kind] of kinds.entries()) {
        const item = systems.nth(i);
        const text = await item.innerText();
        assert.match(text, kind === 'postgres' ? /PostgreSQL database/ : /MySQL \/ MariaDB database/);
        assert.match(text, /customer, login, orders, address, order_line, preference/);
        assert.match(text, /email, github_id, username/);
        await item.getByRole('button', { name: 'Test connection' }).click();
        await item.getByText(/^Reachable in \d+ ms/).waitFor();
        assert.equal(await item.locator('table').first().locator('tbody tr').count(), 6);
        assert.doesNotMatch(await item.locator('table').first().innerText(), /\bno\b/);
        await item.getByRole('button', { name: 'Preview for a person' }).click();
        await item.getByLabel('Subject provider').fill('github');
        await item.getByLabel('Subject id').fill('583231');
        await item.getByLabel('Request type').selectOption('deletion');
        await item.getByRole('button', { name: 'Preview statements' }).click();
        const statements = item.locator('table.statements');
        await statements.waitFor();
        const shown = await statements.innerText();
        assert.match(shown, kind === 'postgres' ? /\$1/ : /\?/);
        assert.match(shown, /UPDATE/);
        assert.doesNotMatch(shown, /583231|ada@example\.com/, 'no value is shown');
        assert.ok(!(await page.content()).includes(targets[i]!.password), 'the connection never reaches the page');
      }
      assert.deepEqual(await seriousViolations(page), []);
      assert.equal(await overflow(page), 0);
      writeFileSync(new URL(`data-systems-1280-${dialect.name}.png`, SCRATCH), await page.screenshot({ fullPage: true }));
      await page.setViewportSize({ width: 390, height: 844 });
      assert.equal(await overflow(page), 0, 'no horizontal scroll at 390 px');
      assert.deepEqual(await seriousViolations(page), []);
      writeFileSync(new URL(`data-systems-390-${dialect.name}.png`, SCRATCH), await page.screenshot({ fullPage: true }));
    });
  });
}
