import { type Dataset, readStoredDataset } from '../connectors/connectors.js';
import type { DataSystemRow } from './data-system.repository.js';

/** Systems whose read dataset is kept per process (the least recently used goes first). */
const KEPT = 1000;

/**
 * Read datasets by system id: a memo of a pure function of the stored row (the same `updated_at`
 * and the same text give the same dataset), so it holds no state a caller could see change.
 */
const memo = new Map<string, { updatedAt: string; text: string; dataset: Dataset }>();

/**
 * The dataset of a stored database system (PRODUCT §2.17: parsed and checked once, at
 * registration or PATCH, never per task). What is stored is the checked dataset's JSON (YAML
 * parsed, aliases expanded, a Fides file unwrapped); it is read back with the shape reader only
 * (no YAML, no checks) once per system and `updated_at` in this process, then served from memory
 * while the row's text is the same. Rows stored before this read the same way: no migration.
 * @returns null for a system without a dataset, or a stored text that no longer reads (never expected).
 */
export function storedDataset(row: Pick<DataSystemRow, 'id' | 'updated_at' | 'dataset'>): Dataset | null {
  if (row.dataset === null) return null;
  const hit = memo.get(row.id);
  if (hit && hit.updatedAt === row.updated_at && hit.text === row.dataset) {
    memo.delete(row.id);
    memo.set(row.id, hit);
    return hit.dataset;
  }
  const dataset = readStoredDataset(JSON.parse(row.dataset) as unknown);
  if (dataset === null) return null;
  memo.delete(row.id);
  memo.set(row.id, { updatedAt: row.updated_at, text: row.dataset, dataset });
  if (memo.size > KEPT) memo.delete(memo.keys().next().value as string);
  return dataset;
}
