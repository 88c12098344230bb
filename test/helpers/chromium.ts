/** Headless Chromium through playwright-core, for tests (and scripts) that look at a page as a person would. */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; .ci/run installs it when missing. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** No sandbox (root in a container), no GPU, and no traffic of its own (updates, sync, first-run pages). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Launches headless Chromium. Never skips: without a browser the caller fails.
 * @throws Error naming the install step when {@link CHROMIUM_PATH} is missing.
 */
export async function openChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: apt-get install -y chromium (.ci/run does it)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}
