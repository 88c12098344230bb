// A dataset's 422 items pointed into the text the officer pasted (PRODUCT §2.14, §2.21): the
// API's `loc` (`["body","dataset","collections",2,"fields",0,…]`) names a path in the dataset; the
// same path in the pasted YAML or JSON (JSON is YAML) gives the line. The YAML parser is loaded
// only when a dataset was refused, so the console's first load does not carry it.
import type { ValidationItem } from '../api/types';

/** One refusal about the dataset: where in the text (1-based line, character range) when found. */
export interface DatasetProblem {
  /** The path inside the dataset, `collections.2.fields.0` ('' for the dataset as a whole). */
  path: string;
  msg: string;
  /** 1-based line of the text, or null when the path is not in the text (or it does not parse). */
  line: number | null;
  /** Offsets of that node in the text, to select it. */
  range: [number, number] | null;
}

/** The 422 items whose `loc` is inside `["body", "dataset"]`. */
export function datasetItems(items: readonly ValidationItem[]): ValidationItem[] {
  return items.filter((item) => item.loc[0] === 'body' && item.loc[1] === 'dataset');
}

/**
 * Locates each dataset item in `text`: the deepest node of its path the text has (a missing
 * field points at the object that lacks it).
 */
export async function locateDatasetProblems(text: string, items: readonly ValidationItem[]): Promise<DatasetProblem[]> {
  const { LineCounter, parseDocument, isNode } = await import('yaml');
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const parsed = doc.errors.length === 0;
  return items.map((item) => {
    const path = item.loc.slice(2);
    let found: [number, number] | null = null;
    for (let n = path.length; parsed && n >= 0 && !found; n--) {
      const node: unknown = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) found = [node.range[0], node.range[1]];
    }
    return {
      path: path.join('.'),
      msg: item.msg,
      line: found ? lineCounter.linePos(found[0]).line : null,
      range: found,
    };
  });
}
