/** What the console's browser tests do on every page: sign in, check axe-core and width, take screenshots. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Where the console tests' screenshots land (looked at before a view is called done). */
export const CONSOLE_SCRATCH = new URL('../../.scratch/console/', import.meta.url);

/** The serious and critical axe-core violations of the page as it is, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** How far the page reaches past the viewport's right edge (px; 0 = no sideways scroll). */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

/** A full-page screenshot as `.scratch/console/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(CONSOLE_SCRATCH, { recursive: true });
  writeFileSync(new URL(`${name}.png`, CONSOLE_SCRATCH), await page.screenshot({ fullPage: true }));
}

/**
 * The view as it is, at 1280 and at 390 px wide: no serious axe-core violation, no sideways
 * scroll, a screenshot of each (`<name>-1280`, `<name>-390`). Leaves the page at 1280 px.
 */
export async function checkBothWidths(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await seriousViolations(page), [], `${name} at ${width} px`);
    assert.ok((await sidewaysOverflow(page)) <= 0, `${name} scrolls sideways at ${width} px`);
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Signs in with a pasted token on a fresh tab state and waits for the queue. */
export async function signIn(page: Page, origin: string, token: string): Promise<void> {
  await page.goto(`${origin}/console/`);
  await page.evaluate('sessionStorage.clear()');
  await page.goto(`${origin}/console/#/queue`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Queue' }).waitFor();
}
