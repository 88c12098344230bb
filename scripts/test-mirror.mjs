// The compiled copy of the project the tests run from (docs/development.md, "Running the tests").
//
// Every test file used to start under tsx, which compiles nothing twice (it caches) but still sends
// each of the ~1 000 modules a file loads through its loader hooks: ≈ 1.8 s of CPU per process
// before the first test, ≈ 6 min of CPU per run on 200 files. The type check the runner does anyway
// (`tsc -p tsconfig.json`) now emits its JavaScript into a mirror of the project instead, and the
// files run there with plain `node`. The mirror is the project's own tree: each compiled `x.js` sits
// beside a link to its `x.ts`, and every other file or folder (fixtures, goldens, docs,
// package.json, node_modules, .scratch) is a link to the original, so a test that finds a file
// relative to `import.meta.url`, reads a source file or writes under `.scratch/` finds, reads and
// writes what it would from the project itself.
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Top-level entries never mirrored: git's own, and outputs the mirror must not share. */
const SKIP_TOP = new Set(['.git', 'dist', 'coverage', '.bench']);

/** Whether `dir` holds a `.ts` file anywhere below it (then it is made, not linked). */
function holdsTypeScript(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && holdsTypeScript(join(dir, entry.name))) return true;
    } else if (entry.name.endsWith('.ts') || entry.name.endsWith('.tsx')) return true;
  }
  return false;
}

/**
 * Links what `tsc` did not write into the mirror: folders without TypeScript whole, and in folders
 * with it, each file (sources included) beside the compiled output. An entry `tsc` already wrote
 * (a `.js`, a `.js.map`, an imported `.json`) is left as written.
 */
function linkInto(from, to, top) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (top && SKIP_TOP.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (existsSync(target) && !lstatSync(target).isDirectory()) continue;
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.scratch' && holdsTypeScript(source))
      linkInto(source, target, false);
    else if (!existsSync(target)) symlinkSync(source, target, entry.isDirectory() ? 'dir' : 'file');
  }
}

/**
 * Lays out the mirror at `mirror` (which `tsc -p tsconfig.json --outDir <mirror>` has filled with
 * the compiled files) around the project at `root`. Call after the compile.
 */
export function layOutMirror(root, mirror) {
  linkInto(root, mirror, true);
}

/** Removes a mirror left by an earlier run (links are removed, never followed). */
export function removeMirror(mirror) {
  rmSync(mirror, { recursive: true, force: true });
}

/** The compiled file the mirror holds for the project's `file` (a path relative to `root`). */
export function mirroredTest(root, mirror, file) {
  return join(mirror, relative(root, file)).replace(/\.ts$/, '.js');
}

/**
 * Lays out privacyctl as the package has it (`bin/privacyctl.js`, `dist/`, `package.json` for ESM,
 * node_modules) at `dir`, its `dist/` a link to `compiledSrc` (the mirror's src/, compiled with the
 * options tsconfig.build.json extends): what test/helpers/privacyctl.ts `layOut` builds for a file
 * run alone, without compiling src/ a second time.
 */
export function layOutCli(root, dir, compiledSrc) {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(join(root, 'bin', 'privacyctl.js'), join(dir, 'bin', 'privacyctl.js'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  symlinkSync(compiledSrc, join(dir, 'dist'), 'dir');
}
