/**
 * The shape of src/ (docs/development.md, "Layers"): no import cycle between files or between
 * module folders, each layer imports only those below it, and only the request lifecycle writes a
 * request's state. Read from the source with TypeScript's own import scanner (type imports
 * included: a type is a dependency too).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = resolve(fileURLToPath(new URL('../../src/', import.meta.url)));

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every src file (relative to src/, `/`-separated) and the src files it imports. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of walk(SRC)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = relative(SRC, resolve(dirname(file), ref.fileName));
      // Data files (JSON) a module reads are its own; the graph is of code.
      if (!target.endsWith('.js')) {
        assert.ok(existsSync(join(SRC, target)), `${relative(SRC, file)} imports a missing ${target}`);
        continue;
      }
      targets.add(target.replace(/\.js$/, '.ts'));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** The node a file belongs to: `modules/<name>` for a module, its top folder, or itself at the root. */
function nodeOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'modules') return `modules/${parts[1]}`;
  return parts.length > 1 ? (parts[0] as string) : file;
}

/** Strongly connected components with more than one member (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, indexOf.get(w) as number));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

function nodeGraph(files: Map<string, Set<string>>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = nodeOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    for (const target of targets) if (nodeOf(target) !== from) edges.add(nodeOf(target));
    graph.set(from, edges);
  }
  return graph;
}

/** Imports of `file` into nodes matching `forbidden`, as `file -> target` lines. */
function offending(files: Map<string, Set<string>>, from: (node: string) => boolean, forbidden: (node: string) => boolean) {
  const lines: string[] = [];
  for (const [file, targets] of files)
    if (from(nodeOf(file))) for (const target of targets) if (forbidden(nodeOf(target))) lines.push(`${file} -> ${target}`);
  return lines;
}

const files = importGraph();
const isModule = (node: string) => node.startsWith('modules/');
const ABOVE_MODULES = new Set(['http', 'jobs', 'webhooks', 'cli', 'app.ts', 'server.ts', 'services.ts']);
/** Modules that import no other module (but the shared leaves they name). */
const SHARED_LEAVES = new Set(['modules/request-model', 'modules/data-categories', 'modules/principals']);

describe('import graph of src/', () => {
  it('resolves every relative import to a file of src/ (the check reads what the compiler reads)', () => {
    const missing = [...files].flatMap(([file, targets]) =>
      [...targets].filter((t) => !files.has(t)).map((t) => `${file} -> ${t}`),
    );
    assert.deepEqual(missing, []);
  });

  it('no import cycle between files', () => {
    assert.deepEqual(cycles(files), []);
  });

  it('no import cycle between module folders and top-level folders', () => {
    assert.deepEqual(cycles(nodeGraph(files)), []);
  });

  it('modules import nothing above them (http, jobs, webhooks, cli, the composition root)', () => {
    assert.deepEqual(
      offending(files, isModule, (n) => ABOVE_MODULES.has(n)),
      [],
    );
  });

  it('workflows import nothing above them (transport, jobs, the composition root)', () => {
    assert.deepEqual(
      offending(
        files,
        (n) => n === 'workflows',
        (n) => ABOVE_MODULES.has(n),
      ),
      [],
    );
  });

  it('modules are leaves: a module imports no workflow', () => {
    assert.deepEqual(
      offending(files, isModule, (n) => n === 'workflows'),
      [],
    );
  });

  it("modules are leaves: a module imports no other module's service (a use case that needs two is a workflow)", () => {
    const lines: string[] = [];
    for (const [file, targets] of files) {
      if (!isModule(nodeOf(file))) continue;
      for (const target of targets)
        if (isModule(nodeOf(target)) && nodeOf(target) !== nodeOf(file) && target.endsWith('.service.ts'))
          lines.push(`${file} -> ${target}`);
    }
    assert.deepEqual(lines, []);
  });

  it('module arrows stay few: at most 30 in all, privacy-requests at most 7, every other module at most 4', () => {
    const arrows = [...nodeGraph(files)]
      .filter(([from]) => isModule(from))
      .map(([from, to]) => [from, [...to].filter(isModule)] as const);
    const total = arrows.reduce((sum, [, to]) => sum + to.length, 0);
    assert.ok(total <= 30, `${total} module→module arrows (at most 30)`);
    for (const [from, to] of arrows) {
      const most = from === 'modules/privacy-requests' ? 7 : 4;
      assert.ok(to.length <= most, `${from} imports ${to.length} modules (at most ${most}): ${to.sort().join(', ')}`);
    }
  });

  it('only the lifecycle owner imports privacy-requests among the modules: every other module is a leaf below it', () => {
    assert.deepEqual(
      offending(
        files,
        (n) => isModule(n) && n !== 'modules/privacy-requests',
        (n) => n === 'modules/privacy-requests',
      ),
      [],
    );
  });

  it('the shared leaves (request model, data categories, principals) import no module', () => {
    assert.deepEqual(
      offending(
        files,
        (n) => SHARED_LEAVES.has(n),
        (n) => isModule(n),
      ),
      [],
    );
  });

  it('db, lib and config import no module, no workflow and nothing above', () => {
    const low = new Set(['db', 'lib', 'config']);
    assert.deepEqual(
      offending(
        files,
        (n) => low.has(n),
        (n) => isModule(n) || n === 'workflows' || ABOVE_MODULES.has(n),
      ),
      [],
    );
  });
});

describe('one writer of a request state', () => {
  const LIFECYCLE = 'modules/privacy-requests/lifecycle/';
  /** Files that write privacy_requests or request_results outside the lifecycle, and why. */
  const ALLOWED: Record<string, string> = {
    'modules/privacy-requests/deadline-notice.repository.ts': 'the deadline sweep marks (due_soon/overdue_notified_at)',
    'modules/privacy-requests/result.repository.ts':
      "package expiry and a package's delivery (the retention sweeper; its first fetch, a held erasure after it)",
    'modules/subject-data/erasure.repository.ts': "an erasure removes the subject's data from other requests' packages",
  };
  const writes = (text: string) =>
    /updateTable\(\s*'privacy_requests'\s*\)|updateTable\(\s*'request_results'\s*\)|insertInto\(\s*'request_results'\s*\)/.test(
      text,
    );

  it('only lifecycle files write privacy_requests and request_results (and the named exceptions, never a status)', () => {
    const writers = [...files.keys()].filter((file) => writes(readFileSync(join(SRC, file), 'utf8')));
    const outside = writers.filter(
      (file) => !file.startsWith(LIFECYCLE) && !(file in ALLOWED) && !file.startsWith('db/migrations/'),
    );
    assert.deepEqual(outside, []);
    for (const file of Object.keys(ALLOWED)) {
      const text = readFileSync(join(SRC, file), 'utf8');
      assert.doesNotMatch(text, /\bstatus\s*:/, `${file} must not set a status`);
    }
    assert.ok(
      writers.some((f) => f.startsWith(LIFECYCLE)),
      'the lifecycle writes requests',
    );
  });
});
