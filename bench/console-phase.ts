/**
 * The web console's first load (PRODUCT.md §2b): headless Chromium on loopback opens
 * `/console/` in a fresh context each time (empty cache, like a first visit) and waits until
 * the sign-in form is on screen. Reports the median and slowest load and the bytes fetched.
 * Runs against the leg's service while it is up; needs the console built (`npm run build`).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openChromium } from '../test/helpers/chromium.js';

const ROOT = resolve(import.meta.dirname, '..');

export interface ConsoleLoadResult {
  loads: number;
  medianMs: number;
  maxMs: number;
  /** Bytes of the responses of one load (page, script, style), as received. */
  bytes: number;
}

/**
 * Loads `${serviceUrl}/console/` `loads` times. @returns null when the console is not built.
 * @throws Error when a load does not show the sign-in form within 10 s.
 */
export async function measureConsoleLoad(serviceUrl: string, loads: number): Promise<ConsoleLoadResult | null> {
  if (!existsSync(join(ROOT, 'dist/console/index.html'))) {
    console.error('  (console not built: run `npm run build`; phase skipped)');
    return null;
  }
  const browser = await openChromium();
  const times: number[] = [];
  let bytes = 0;
  try {
    for (let i = 0; i < loads; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      let received = 0;
      page.on('response', (response) => {
        void response.body().then(
          (body) => void (received += body.length),
          () => undefined,
        );
      });
      const started = performance.now();
      await page.goto(`${serviceUrl}/console/`);
      await page.getByLabel('API token').waitFor({ timeout: 10_000 });
      times.push(performance.now() - started);
      bytes = received;
      await context.close();
    }
  } finally {
    await browser.close();
  }
  times.sort((a, b) => a - b);
  return { loads, medianMs: times[Math.floor(times.length / 2)]!, maxMs: times[times.length - 1]!, bytes };
}

export function printConsoleLoad(result: ConsoleLoadResult | null): void {
  if (!result) return;
  console.log(
    `\nconsole first load (/console/ in headless Chromium, empty cache, ${result.loads} loads): median ${result.medianMs.toFixed(0)} ms, slowest ${result.maxMs.toFixed(0)} ms, ${(result.bytes / 1024).toFixed(1)} KiB fetched`,
  );
}
