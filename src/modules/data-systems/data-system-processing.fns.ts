import type { DataSystemRow } from './data-system.repository.js';
import { type DeclaredProcessing, PROCESSING_FIELDS, type ProcessingField } from './data-system.types.js';

/** The stored columns of a system's declared processing (JSON text each, NULL: not declared). */
type ProcessingColumns = Partial<Record<ProcessingField, string | null>>;

/** Each string trimmed, blank and repeated ones dropped, in the order given. */
function cleaned(list: readonly string[]): string[] {
  return [...new Set(list.map((item) => item.trim()).filter((item) => item !== ''))];
}

/**
 * The columns a create or update writes for the declared processing it carries (PRODUCT §2.17):
 * a list as JSON text (trimmed, repeats dropped; a list left empty is not a declaration: NULL),
 * `null` as NULL (withdrawn); a field the input does not carry is not written.
 */
export function processingColumns(input: Partial<Record<ProcessingField, readonly string[] | null>>): ProcessingColumns {
  const out: ProcessingColumns = {};
  for (const field of PROCESSING_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    const list = value === null ? [] : cleaned(value);
    out[field] = list.length === 0 ? null : JSON.stringify(list);
  }
  return out;
}

/** A stored column as a list, or null (not declared, or text that is not a list of strings). */
function listOf(text: string | null): string[] | null {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) && value.every((item) => typeof item === 'string') && value.length > 0 ? value : null;
}

/** A stored system's {@link DeclaredProcessing}: each list, or null when the controller declared none. */
export function declaredProcessing(row: Pick<DataSystemRow, ProcessingField>): DeclaredProcessing {
  return {
    purposes: listOf(row.purposes),
    recipients: listOf(row.recipients),
    retention: listOf(row.retention),
    source: listOf(row.source),
  };
}
