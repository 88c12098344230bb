// Runs every test/**/*.test.ts with Node's own test runner, several files at a time: the files run
// side by side in their own processes, as `node --test` itself would run them, each compiled once
// beforehand into a mirror of the project (scripts/test-mirror.mjs: no TypeScript loader per
// process), and each file's report is printed whole when it ends. docs/development.md, "Run things".
//
//   npm test                     every file
//   npm test -- connectors http  the files whose path contains one of the words
//   TEST_CONCURRENCY=1 npm test  one file at a time (default: 2 per core, at least 4)
//
// Under CI=true the PostgreSQL leg is mandatory: TEST_DATABASE_URL must be set.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { layOutCli, layOutMirror, mirroredTest } from './test-mirror.mjs';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The running children: ended with the runner when it is interrupted. */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    for (const child of running) child.kill('SIGTERM');
    process.exit(130);
  });

/** Runs a command; resolves with its exit code, its output (stdout and stderr interleaved) and its wall time in ms. */
function run(command, args, env = process.env) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.once('exit', () => running.delete(child));
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString(), ms: performance.now() - started }),
    );
  });
}

/** Runs the test helper's `fn(dir)` (a build the helper would otherwise make per file). */
function buildWith(fn, helper, dir) {
  const code = `const m = await import(${JSON.stringify(pathToFileURL(resolve(helper)).href)}); await m.${fn}(${JSON.stringify(dir)});`;
  return run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code]);
}

/**
 * The part of a file's spec report that says what failed: its `✖ failing tests:` section (Node's
 * spec reporter prints it after the summary), or the report's last 80 lines when there is none (a crash).
 */
function failureOf(output) {
  const at = output.lastIndexOf('✖ failing tests:');
  return at === -1 ? output.split('\n').slice(-80).join('\n') : output.slice(at);
}

/** The counts of a spec report's summary (`ℹ tests 12`, `ℹ pass 11`, …). */
function counts(output) {
  const read = (name) => Number(output.match(new RegExp(`^ℹ ${name} (\\d+)`, 'm'))?.[1] ?? 0);
  return { tests: read('tests'), pass: read('pass'), fail: read('fail'), skipped: read('skipped'), cancelled: read('cancelled') };
}

if (process.env.CI === 'true' && !process.env.TEST_DATABASE_URL) {
  console.error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL leg must run in CI.');
  process.exit(1);
}
const filter = process.argv.slice(2);
/**
 * Started first: the files that take longest (each spawns many processes or drives Chromium: the
 * console's and every `*-browser.test.ts`), so
 * that none of them is left running alone at the end. Measured: the runner's summary lists the
 * slowest files and the files using the most CPU.
 */
const LONG_FIRST = [
  'test/integration/cli/',
  'test/integration/console/',
  '-browser.test.ts',
  'test/integration/audit/audit-verify',
  'test/faults/',
];
const rank = (file) => {
  const i = LONG_FIRST.findIndex((part) => (part.endsWith('.ts') ? file.endsWith(part) : file.startsWith(part)));
  return i === -1 ? LONG_FIRST.length : i;
};
const files = findTests('test')
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY) || Math.max(4, availableParallelism() * 2));
const started = performance.now();

// Before the files, side by side: both type checks (the project's emits the compiled mirror the
// files run from: scripts/test-mirror.mjs) and the console's build; then the privacyctl package laid
// out around the mirror's compiled src/ (its dist/, no second compile). Both builds are made once
// here and read by every file that needs them.
const builds = resolve('.scratch/test-run');
rmSync(builds, { recursive: true, force: true });
mkdirSync(builds, { recursive: true });
const cliBuild = join(builds, 'privacyctl');
const consoleBuild = join(builds, 'console');
const mirror = join(builds, 'js');
const prepared = await Promise.all([
  run('npx', ['tsc', '-p', 'tsconfig.json', '--outDir', mirror]),
  run('npx', ['tsc', '-p', 'console/tsconfig.json', '--noEmit']),
  buildWith('buildConsoleInto', 'test/helpers/console-build.ts', consoleBuild),
]);
for (const p of prepared) process.stdout.write(p.output);
if (prepared.some((p) => p.code !== 0)) process.exit(1);
layOutMirror(resolve('.'), mirror);
layOutCli(resolve('.'), cliBuild, join(mirror, 'src'));
console.log(`== type checks and builds: ${((performance.now() - started) / 1000).toFixed(0)} s`);

const TIME = '/usr/bin/time';
const timed = existsSync(TIME);
/** User + system seconds GNU time wrote, or null. */
function readCpu(path) {
  try {
    const [user, system] = readFileSync(path, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
    return Number.isFinite(user) && Number.isFinite(system) ? user + system : null;
  } catch {
    return null;
  }
}

const env = {
  ...process.env,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  TEST_PRIVACYCTL_BUILD: cliBuild,
  TEST_CONSOLE_BUILD: consoleBuild,
};
const results = [];
let next = 0;
async function worker() {
  while (next < files.length) {
    const file = files[next++];
    // The compiled file, with stack traces mapped back to the TypeScript line.
    const argv = [
      process.execPath,
      '--enable-source-maps',
      '--test',
      '--test-reporter=spec',
      mirroredTest(resolve('.'), mirror, file),
    ];
    const cpuFile = join(builds, `cpu-${next}.txt`);
    // The CPU the file used, its child processes included (the ones it waited for), when GNU time is here.
    const result = timed ? await run(TIME, ['-f', '%U %S', '-o', cpuFile, ...argv], env) : await run(argv[0], argv.slice(1), env);
    const cpu = timed ? readCpu(cpuFile) : null;
    results.push({ file, ...result, cpu, ...counts(result.output) });
    const mark = result.code === 0 ? '✔' : '✖';
    const cpuText = cpu === null ? '' : `, ${cpu.toFixed(1)} s CPU`;
    process.stdout.write(`\n${mark} ${file} (${(result.ms / 1000).toFixed(1)} s${cpuText})\n${result.output}`);
  }
}
await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));

const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
const failed = results.filter((r) => r.code !== 0);
console.log(`\n== ${files.length} files, ${concurrency} at a time, ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(`   tests ${total('tests')}, pass ${total('pass')}, fail ${total('fail')}, skipped ${total('skipped')}`);
console.log('   slowest files:');
for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 10))
  console.log(`   ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
if (timed) {
  const cpuTotal = results.reduce((sum, r) => sum + (r.cpu ?? 0), 0);
  console.log(`   CPU of the files: ${cpuTotal.toFixed(0)} s in all; the most:`);
  for (const r of [...results].sort((a, b) => (b.cpu ?? 0) - (a.cpu ?? 0)).slice(0, 15))
    console.log(`   ${(r.cpu ?? 0).toFixed(1).padStart(7)} s  ${r.file}`);
}
if (failed.length > 0) {
  console.log(`\n✖ ${failed.length} file(s) failed:`);
  for (const r of failed) console.log(`   ${r.file} (exit ${r.code}, ${r.fail} failing test(s))`);
  // Again, last, what each failed: CI keeps the end of a long log, where the files' reports are cut.
  for (const r of failed) console.log(`\n✖ ${r.file}:\n${failureOf(r.output)}`);
  process.exit(1);
}
