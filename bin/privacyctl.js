#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=100
// privacyctl (PRODUCT.md §3): runs the compiled CLI in dist/cli (built by `npm run build`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('privacyctl: not built; run npm run build');
  process.exit(1);
}
const { run } = await import(entry.href);
// exitCode, not exit(): lets stdout drain and, for `serve`, keeps the server running.
process.exitCode = await run(process.argv.slice(2));
