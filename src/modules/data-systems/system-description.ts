import type { Executor } from '../../db/executor.js';
import { isSystemCategory } from '../data-categories/data-categories.fns.js';
import { type Dataset, readStoredDataset } from '../connectors/connectors.js';
import { declaredProcessing } from './data-system-processing.fns.js';
import type { DeclaredProcessing } from './data-system.types.js';
import { answerOf, type SystemAnswer, type TaskResult } from './data-task-result.fns.js';

/** The personal-data categories of each field of each collection of a dataset (`system.*` left out). */
export type FieldCategories = Record<string, Record<string, string[]>>;

/**
 * What a package states of one data system besides its data (PRODUCT §2.17): what its controller
 * declared about its processing and, for a database system, the categories of each field its
 * dataset labels (so the letter can name each collection's data in plain words).
 */
export interface SystemDescription {
  processing: DeclaredProcessing;
  /** Database kinds: collection → field → categories; null for other kinds. */
  fields: FieldCategories | null;
}

/** Nothing declared: what a package says of a system the workspace no longer has a row for. */
export const NOT_DECLARED: DeclaredProcessing = Object.freeze({
  purposes: null,
  recipients: null,
  retention: null,
  source: null,
});

/** The personal-data categories of every field of `dataset`, by collection and field. */
export function fieldCategories(dataset: Dataset): FieldCategories {
  const out: FieldCategories = {};
  for (const collection of dataset.collections)
    out[collection.name] = Object.fromEntries(
      collection.fields.map((f) => [f.name, f.data_categories.filter((k) => !isSystemCategory(k))]),
    );
  return out;
}

/**
 * Each system of `keys` in the workspace (deleted ones too: their tasks still answered) described
 * as {@link SystemDescription}, read once when a package is assembled, so the package keeps what
 * was declared when the answer was given.
 */
export async function describeSystems(
  db: Executor,
  workspaceId: string,
  keys: readonly string[],
): Promise<Map<string, SystemDescription>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('data_systems')
    .select(['key', 'dataset', 'purposes', 'recipients', 'retention', 'source'])
    .where('workspace_id', '=', workspaceId)
    .where('key', 'in', [...new Set(keys)])
    .execute();
  return new Map(
    rows.map((row) => {
      const dataset = row.dataset === null ? null : readStoredDataset(JSON.parse(row.dataset) as unknown);
      return [row.key, { processing: declaredProcessing(row), fields: dataset ? fieldCategories(dataset) : null }];
    }),
  );
}

/** One collection of a database system's answer: rows found, and the categories of each field returned. */
export interface CollectionAnswer {
  rows: number;
  fields: Record<string, string[]>;
}

/**
 * The package's `system_answers.<key>` of a task (PRODUCT §2.13, §2.17; null when it says nothing: {@link answerOf}): its counts and
 * `delivered_separately` ({@link answerOf}) and, for a database system's answer (data by
 * collection), per collection the rows found and the categories of each field the rows hold, from
 * `description` (a field the dataset no longer has gets no category).
 */
export function systemAnswer(
  status: string,
  result: TaskResult | null,
  description: SystemDescription | undefined,
): (SystemAnswer & { collections?: Record<string, CollectionAnswer> }) | null {
  const answer = answerOf(status, result);
  if (answer === null || status !== 'completed') return answer;
  if (result?.data_by !== 'collection' || result.data === undefined) return answer;
  const collections: Record<string, CollectionAnswer> = {};
  for (const [name, rows] of Object.entries(result.data)) {
    const list = Array.isArray(rows) ? (rows as unknown[]) : [];
    const names = new Set(list.flatMap((row) => (typeof row === 'object' && row !== null ? Object.keys(row) : [])));
    const known = description?.fields?.[name] ?? {};
    collections[name] = { rows: list.length, fields: Object.fromEntries([...names].map((f) => [f, known[f] ?? []])) };
  }
  return { ...answer, collections };
}
