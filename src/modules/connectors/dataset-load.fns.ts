import {
  type Alias,
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node,
  Parser,
} from 'yaml';
import { DATASET_LIMITS } from './dataset-parse.fns.js';
import type { DatasetProblem } from './dataset.types.js';

/**
 * The bounds of a dataset (PRODUCT §2.17, "Bounds"), counted after YAML aliases are expanded:
 * collections and fields per dataset, nesting depth, and every value of the whole input (keys,
 * scalars and collections), which bounds what is stored and read back whatever part of the
 * dataset an alias repeats.
 */
export const DATASET_BOUNDS = { collections: 500, fields: 5000, depth: 64, values: 250_000 } as const;

/** A dataset past a size bound (413): which bound, its maximum, and what the input expands to. */
export interface DatasetTooLarge {
  readonly limit: 'collections' | 'fields' | 'values';
  readonly max: number;
  readonly found: number;
}

/** What a bound says, for a person: `the dataset holds 50000 fields once its YAML aliases are expanded; at most 5000 are allowed`. */
export function tooLargeSentence(t: DatasetTooLarge): string {
  return `the dataset holds ${t.found} ${t.limit} once its YAML aliases are expanded; at most ${t.max} are allowed`;
}

/** The dataset input as a plain value, bounded; or why not (422 problems, or a 413 bound). */
export type LoadedDataset = { value: unknown } | { problems: DatasetProblem[] } | { tooLarge: DatasetTooLarge };

/** A node's measure: how deep it nests (a scalar 0) and how many values it expands to. */
interface Measure {
  depth: number;
  values: number;
}

class TooDeep extends Error {}
/** An alias that cannot be expanded: it names no anchor before it, or one that contains it. */
class BadAlias extends Error {}

const tooDeep = (): LoadedDataset => ({
  problems: [{ loc: [], msg: `the dataset nests deeper than ${DATASET_BOUNDS.depth} levels (YAML aliases expanded)` }],
});

/**
 * Measures a YAML document without expanding it: each node once, in document order (so an alias
 * resolves to the last anchor of its name before it, as YAML says), an alias counting as its
 * anchored node. Linear in the document's size, whatever the aliases expand to.
 */
class YamlMeasure {
  private readonly anchors = new Map<string, Node>();
  private readonly measured = new Map<Node, Measure>();
  private readonly open = new Set<Node>();
  readonly aliases = new Map<Alias, Node>();

  measure(node: unknown, depth: number): Measure {
    if (depth > DATASET_BOUNDS.depth) throw new TooDeep();
    if (isAlias(node)) {
      const source = this.anchors.get(node.source);
      const name = node.source.slice(0, 64);
      if (!source) throw new BadAlias(`the YAML alias *${name} names no anchor before it`);
      if (this.open.has(source)) throw new BadAlias(`the YAML alias *${name} refers to a node that contains it`);
      this.aliases.set(node, source);
      const known = this.measured.get(source) as Measure;
      if (depth + known.depth > DATASET_BOUNDS.depth) throw new TooDeep();
      return known;
    }
    if (!isMap(node) && !isSeq(node)) {
      if (isScalar(node) && node.anchor) this.anchors.set(node.anchor, node);
      if (isScalar(node)) this.measured.set(node, { depth: 0, values: 1 });
      return { depth: 0, values: 1 };
    }
    if (node.anchor) this.anchors.set(node.anchor, node);
    this.open.add(node);
    const result: Measure = { depth: 1, values: 1 };
    for (const item of node.items as unknown[]) {
      for (const part of isPair(item) ? [item.key, item.value] : [item]) {
        const m = this.measure(part, depth + 1);
        result.depth = Math.max(result.depth, m.depth + 1);
        result.values += m.values;
      }
    }
    this.open.delete(node);
    this.measured.set(node, result);
    return result;
  }

  /** A node with its alias followed. */
  resolve(node: unknown): unknown {
    return isAlias(node) ? this.aliases.get(node) : node;
  }

  /** The value of `key` in a map node (aliases followed), or undefined. */
  get(node: unknown, key: string): unknown {
    const map = this.resolve(node);
    if (!isMap(map)) return undefined;
    const pair = map.items.find((p) => {
      const k = this.resolve(p.key);
      return isScalar(k) && k.value === key;
    });
    return pair ? this.resolve(pair.value) : undefined;
  }

  /** The items of a sequence node (aliases followed), or []. */
  items(node: unknown): unknown[] {
    const seq = this.resolve(node);
    return isSeq(seq) ? (seq.items as unknown[]) : [];
  }
}

/**
 * Reads YAML (or JSON) into CST tokens one lexeme at a time (`feed`), refusing nesting past the
 * bound as it goes: the parser's stack is the nesting being read, so a document of `[[[[…` is
 * refused after its first few dozen characters, before the composer recurses into it. Fed whole
 * by {@link loadDatasetInput}, or in slices between turns of the event loop (dataset-load.ts).
 */
export class CstReader {
  readonly lines = new LineCounter();
  readonly tokens: CST.Token[] = [];
  private readonly parser = new Parser(this.lines.addNewLine);
  /** False once the nesting passed the bound: stop feeding. */
  withinDepth = true;

  constructor(readonly text: string) {
    this.lines.addNewLine(0); // Parser.parse() does this; next() does not
  }

  /** Reads one lexeme (from `new Lexer().lex(text)`). @returns false once the nesting is too deep. */
  feed(lexeme: string): boolean {
    for (const token of this.parser.next(lexeme)) this.tokens.push(token);
    this.withinDepth = this.parser.stack.length <= DATASET_BOUNDS.depth + 4;
    return this.withinDepth;
  }

  /** Ends the input and composes the one document. */
  compose(): { doc: Document.Parsed } | { problems: DatasetProblem[] } {
    for (const token of this.parser.end()) this.tokens.push(token);
    const docs = [...new Composer({ uniqueKeys: true }).compose(this.tokens, true, this.text.length)];
    const doc = docs[0];
    if (!doc || docs.length > 1) return { problems: [{ loc: [], msg: 'the dataset text should hold one YAML document' }] };
    const error = doc.errors[0];
    if (error)
      return {
        problems: [{ loc: [], msg: `the dataset is not valid YAML or JSON (line ${this.lines.linePos(error.pos[0]).line})` }],
      };
    return { doc };
  }
}

/** The largest collection and field counts of the datasets in a document (a Fides file may list several). */
function countDatasets(m: YamlMeasure, root: unknown): { collections: number; fields: number } {
  const files = m.items(m.get(root, 'dataset'));
  const datasets = files.length > 0 ? files : [root];
  let most = { collections: 0, fields: 0 };
  for (const dataset of datasets) {
    const collections = m.items(m.get(dataset, 'collections'));
    const fields = collections.reduce<number>((sum, c) => sum + m.items(m.get(c, 'fields')).length, 0);
    most = { collections: Math.max(most.collections, collections.length), fields: Math.max(most.fields, fields) };
  }
  return most;
}

/** The first bound the counts pass, or null. */
function pastBound(counts: { collections: number; fields: number; values: number }): DatasetTooLarge | null {
  for (const limit of ['collections', 'fields', 'values'] as const)
    if (counts[limit] > DATASET_BOUNDS[limit]) return { limit, max: DATASET_BOUNDS[limit], found: counts[limit] };
  return null;
}

/** A text past the character limit (422), or null. */
export function textTooLong(text: string): LoadedDataset | null {
  return text.length > DATASET_LIMITS.yamlChars
    ? { problems: [{ loc: [], msg: `the dataset text is longer than ${DATASET_LIMITS.yamlChars} characters` }] }
    : null;
}

/**
 * The end of a YAML load, once the reader has every lexeme: nesting, the composed document, its
 * measure (depth, aliases) and bounds, then the plain value.
 */
export function finishYaml(reader: CstReader): LoadedDataset {
  if (!reader.withinDepth) return tooDeep();
  const composed = reader.compose();
  if ('problems' in composed) return composed;
  const m = new YamlMeasure();
  let measure: Measure;
  try {
    measure = m.measure(composed.doc.contents, 0);
    if (measure.depth > DATASET_BOUNDS.depth) throw new TooDeep();
  } catch (error) {
    if (error instanceof TooDeep) return tooDeep();
    if (error instanceof BadAlias) return { problems: [{ loc: [], msg: error.message }] };
    throw error;
  }
  const tooLarge = pastBound({ ...countDatasets(m, composed.doc.contents), values: measure.values });
  if (tooLarge) return { tooLarge };
  // Within the bounds: toJS shares each anchored value among its aliases (no copy), and what
  // reading and storing it expands is bounded by `values`.
  return { value: composed.doc.toJS({ maxAliasCount: -1 }) };
}

function loadYaml(text: string): LoadedDataset {
  const long = textTooLong(text);
  if (long) return long;
  const reader = new CstReader(text);
  for (const lexeme of new Lexer().lex(text)) if (!reader.feed(lexeme)) break;
  return finishYaml(reader);
}

/** Bounds a plain (already parsed) dataset value. */
export function loadValue(input: unknown): LoadedDataset {
  let measure: Measure;
  try {
    measure = measureValue(input, 0);
    if (measure.depth > DATASET_BOUNDS.depth) throw new TooDeep();
  } catch (error) {
    if (error instanceof TooDeep) return tooDeep();
    throw error;
  }
  const tooLarge = pastBound({ ...countValue(input), values: measure.values });
  return tooLarge ? { tooLarge } : { value: input };
}

/** Measures a plain value (a JSON body): depth past the bound stops the walk at once. */
function measureValue(value: unknown, depth: number): Measure {
  if (depth > DATASET_BOUNDS.depth) throw new TooDeep();
  if (typeof value !== 'object' || value === null) return { depth: 0, values: 1 };
  const children = Array.isArray(value) ? value : Object.entries(value).flat();
  const result: Measure = { depth: 1, values: 1 };
  for (const child of children) {
    const m = measureValue(child, depth + 1);
    result.depth = Math.max(result.depth, m.depth + 1);
    result.values += m.values;
  }
  return result;
}

/** The largest collection and field counts of a plain dataset value (bare or a Fides file). */
function countValue(value: unknown): { collections: number; fields: number } {
  const record = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]) : []);
  const files = list(record(value).dataset);
  let most = { collections: 0, fields: 0 };
  for (const dataset of files.length > 0 ? files : [value]) {
    const collections = list(record(dataset).collections);
    const fields = collections.reduce<number>((sum, c) => sum + list(record(c).fields).length, 0);
    most = { collections: Math.max(most.collections, collections.length), fields: Math.max(most.fields, fields) };
  }
  return most;
}

/**
 * The dataset as given to the API (a YAML or JSON string, or an object), as a plain value within
 * the bounds (PRODUCT §2.17): text past 1 000 000 characters, invalid YAML, nesting past 64
 * levels or an alias without an anchor before it (or inside it) are 422 problems (`loc` `[]`: the dataset itself); more than 500
 * collections, 5 000 fields or 250 000 values once aliases are expanded is `tooLarge` (413).
 * The counts never expand an alias: a 72 KB alias bomb is measured in one pass over its nodes.
 */
export function loadDatasetInput(input: unknown): LoadedDataset {
  return typeof input === 'string' ? loadYaml(input) : loadValue(input);
}
