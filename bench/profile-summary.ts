/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`, e.g. a `BENCH_PROFILE=1` run):
 * the top functions by self time, the service's own functions by total (inclusive) time, and
 * self time per package. Time is taken from `timeDeltas`, so it is wall time between samples.
 *
 * Usage: `node --import tsx bench/profile-summary.ts FILE.cpuprofile [TOP=10]`
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, ...extra] = process.argv.slice(2);
const top = Number(topArg ?? 10);
if (!file || !Number.isInteger(top) || top < 1 || extra.length > 0) {
  console.error('usage: profile-summary.ts FILE.cpuprofile [TOP]  (one file: --cpu-prof also writes one per worker thread)');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

/** The service's own code: dist/, not a dependency's dist/. */
const isService = (frame: CallFrame) => /\/dist\//.test(frame.url) && !frame.url.includes('/node_modules/');

/** A short place for a frame: node_modules/pkg/… or dist/… relative, node: internals as-is. */
function where(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  const inModules = url.lastIndexOf('/node_modules/');
  const short = inModules >= 0 ? url.slice(inModules + '/node_modules/'.length) : url.replace(/^.*\/(dist|src)\//, '$1/');
  return short ? `${short}:${frame.lineNumber + 1}` : '';
}

function packageOf(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native/V8)';
  if (url.startsWith('node:')) return 'node: internals';
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match?.[1]) return match[1];
  return isService(frame) ? 'service (dist/)' : url;
}

const key = (frame: CallFrame) => `${frame.functionName || '(anonymous)'}  ${where(frame)}`;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const perPackage = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const delta = (profile.timeDeltas[i] ?? 0) / 1000; // µs → ms
  const node = byId.get(id);
  if (!node) return;
  total += delta;
  self.set(key(node.callFrame), (self.get(key(node.callFrame)) ?? 0) + delta);
  perPackage.set(packageOf(node.callFrame), (perPackage.get(packageOf(node.callFrame)) ?? 0) + delta);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame;
    if (!frame || !isService(frame) || seen.has(key(frame))) continue;
    seen.add(key(frame));
    inclusive.set(key(frame), (inclusive.get(key(frame)) ?? 0) + delta);
  }
});

function print(title: string, entries: Map<string, number>, n: number, exclude: (k: string) => boolean = () => false) {
  console.log(`\n${title}`);
  const rows = [...entries]
    .filter(([k]) => !exclude(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n);
  for (const [i, [k, ms]] of rows.entries()) {
    console.log(
      `${String(i + 1).padStart(3)}. ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${k}`,
    );
  }
}

const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((sum, [, ms]) => sum + ms, 0);
const busy = total - idle;
console.log(`${file}: ${total.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms not idle; percentages are of the not-idle time`);
print(`top ${top} by self time (idle excluded)`, self, top, (k) => k.startsWith('(idle)'));
print(`top ${top} service functions (dist/) by total time`, inclusive, top);
print('self time by package', perPackage, 15, (k) => k === '(idle)');
