/**
 * What every browser test of the privacy center's server-rendered pages checks (no JavaScript on
 * the page itself): axe-core's serious and critical violations, run in a scripted page of the
 * same origin with the page's HTML (the page's CSP refuses axe's script), and sideways scroll.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe-core's serious or critical violations of `page`, analysed in `scripted` (a page with JavaScript on). */
export async function seriousViolations(page: Page, scripted: Page): Promise<string[]> {
  await scripted.goto(new URL('/privacy-center/assets/center.css', page.url()).href);
  await scripted.setViewportSize(page.viewportSize() ?? { width: 1280, height: 900 });
  await scripted.setContent(await page.content());
  const results = await new AxeBuilder({ page: scripted }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** How many pixels `page` scrolls sideways (0 or less: none). */
export const overflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
