// What a data system declares about its processing (PRODUCT §2.17, §2.21): `purposes`,
// `recipients`, `retention`, `source`, each a list of plain-text statements the person reads in
// the access letter. The form edits each as one textarea, one statement per line; these functions
// turn the text into the API's list and back, and point the API's 422 items at their lines.
// No import: the unit test compiles this file on its own (test/unit/console-declared-processing.test.ts).

/** The parts of a 422 item (the API's `ValidationItem`) these functions read. */
interface ValidationItem {
  type?: string;
  loc: readonly (string | number)[];
  msg: string;
}

/** The four declared fields, in the order the letter shows them. */
export const PROCESSING_FIELDS = ['purposes', 'recipients', 'retention', 'source'] as const;
/** One of {@link PROCESSING_FIELDS}. */
export type ProcessingField = (typeof PROCESSING_FIELDS)[number];
/** Most statements a field takes (the API's `maxItems`). */
export const MAX_STATEMENTS = 20;
/** Longest statement, in characters (the API's `maxLength`). */
export const MAX_STATEMENT_CHARS = 500;

/** How each field is named in the form, and the heading the letter shows it under. */
export const PROCESSING_TEXT: Readonly<Record<ProcessingField, { label: string; letter: string; undeclared: string }>> = {
  purposes: {
    label: 'Purposes: why it holds personal data',
    letter: 'Why it holds your data',
    undeclared: 'has not declared why this system holds your data',
  },
  recipients: {
    label: 'Recipients: who receives data from it',
    letter: 'Who receives it',
    undeclared: 'has not declared who receives data from this system',
  },
  retention: {
    label: 'Retention: how long it keeps the data',
    letter: 'How long it is kept',
    undeclared: 'has not declared how long this system keeps your data',
  },
  source: {
    label: 'Source: where its data came from',
    letter: 'Where it came from',
    undeclared: 'has not declared where this system’s data came from',
  },
};

/** One statement of a textarea: its text (trimmed) and its 1-based line. */
export interface Statement {
  text: string;
  line: number;
}

/** The statements of `text`: one per line that is not blank, trimmed, in order (CRLF or LF). */
export function statementsOf(text: string): Statement[] {
  return text
    .split(/\r?\n/)
    .map((raw, i) => ({ text: raw.trim(), line: i + 1 }))
    .filter((s) => s.text !== '');
}

/** A declared list as the textarea shows it: one statement a line; '' for not declared (null). */
export function textOf(list: readonly string[] | null | undefined): string {
  return (list ?? []).join('\n');
}

/**
 * What a field's textarea sends: for a registration (POST) the list, or undefined (left out: not
 * declared) when the text has no statement; for a change (PATCH) the list, or null when the text
 * is empty and the system had declared something (withdrawn), or undefined when it had not.
 */
export function declaredValue(
  text: string,
  before: readonly string[] | null | undefined,
  editing: boolean,
): string[] | null | undefined {
  const list = statementsOf(text).map((s) => s.text);
  if (list.length > 0) return list;
  return editing && before ? null : undefined;
}

/** A system's declarations (each a list, or null: not declared), as the API returns them. */
export type Declared = Readonly<Record<ProcessingField, readonly string[] | null | undefined>>;

/** The four textareas' text for `system` (registration: null, every one empty). */
export function textsOf(system: Declared | null): Record<ProcessingField, string> {
  return {
    purposes: textOf(system?.purposes),
    recipients: textOf(system?.recipients),
    retention: textOf(system?.retention),
    source: textOf(system?.source),
  };
}

/**
 * The body fields a registration (`before` null) or a change of `before` sends for the four
 * textareas: each {@link declaredValue} that is not undefined.
 */
export function declaredBody(
  texts: Readonly<Record<ProcessingField, string>>,
  before: Declared | null,
): Partial<Record<ProcessingField, string[] | null>> {
  const out: Partial<Record<ProcessingField, string[] | null>> = {};
  for (const field of PROCESSING_FIELDS) {
    const value = declaredValue(texts[field], before?.[field], before !== null);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** What the form refuses before sending: more than {@link MAX_STATEMENTS} statements (the API checks the rest). */
export function declaredProblems(text: string): string[] {
  const n = statementsOf(text).length;
  return n > MAX_STATEMENTS ? [`At most ${MAX_STATEMENTS} statements, one a line (this has ${n})`] : [];
}

/**
 * The API's 422 items about `field` (`loc` `["body", field]` or `["body", field, i]`) in words
 * for the textarea: an item about the i-th statement names its line in `text` ("Line 3: …"),
 * since the form sent the statements in order, one per line that is not blank.
 */
export function declaredErrors(items: readonly ValidationItem[], field: ProcessingField, text: string): string[] {
  const statements = statementsOf(text);
  return items
    .filter((item) => item.loc[0] === 'body' && item.loc[1] === field)
    .map((item) => {
      const index = item.loc[2];
      const line = typeof index === 'number' ? statements[index]?.line : undefined;
      return line === undefined ? item.msg : `Line ${line}: ${item.msg}`;
    });
}
