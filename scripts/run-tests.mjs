// Runs every test/**/*.test.ts with Node's own test runner (TypeScript through tsx).
// Node 20's `--test` takes no globs, so the files are listed here.
// Under CI=true the PostgreSQL leg is mandatory: TEST_DATABASE_URL must be set.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

if (process.env.CI === 'true' && !process.env.TEST_DATABASE_URL) {
  console.error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL leg must run in CI.');
  process.exit(1);
}
const filter = process.argv.slice(2);
const files = findTests('test')
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();
for (const project of ['tsconfig.json', 'console/tsconfig.json']) {
  const typecheck = spawnSync('npx', ['tsc', '-p', project, '--noEmit'], { stdio: 'inherit' });
  if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);
}
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
});
process.exit(run.status ?? 1);
