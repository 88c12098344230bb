// What an officer attaches to a manual task's answer (PRODUCT §2.13): the data as JSON, from the
// text box or a JSON/CSV file, at most 1 MiB (the service's MAX_TASK_DATA_BYTES default).

/** The largest data the form sends, bytes of UTF-8 JSON (1 MiB). */
export const MAX_TASK_DATA_BYTES = 1024 * 1024;

/** "1.3 MiB", "512 KiB", "900 bytes". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

/** The refusal of data over the limit, in the form's words; null when it fits. */
export function tooLarge(bytes: number): string | null {
  return bytes > MAX_TASK_DATA_BYTES
    ? `The data is ${sizeText(bytes)}; at most 1 MiB (${MAX_TASK_DATA_BYTES.toLocaleString('en')} bytes) can be attached. Send a larger answer to the person separately.`
    : null;
}

/** One CSV line's fields (RFC 4180: quoted fields, doubled quotes, commas inside quotes). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/**
 * A CSV text (first line: column names) as rows, one object per line, by column name. Lines
 * are split on CRLF or LF; a quoted field may not span lines here (an export from a help desk
 * or a spreadsheet has none). Empty lines are skipped.
 * @throws Error naming the first line whose field count differs from the header's.
 */
export function csvRows(text: string): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  const [header, ...rest] = lines;
  if (header === undefined) return [];
  const columns = csvFields(header);
  return rest.map((line, index) => {
    const fields = csvFields(line);
    if (fields.length !== columns.length)
      throw new Error(`CSV line ${index + 2} has ${fields.length} fields; the header has ${columns.length}`);
    return Object.fromEntries(columns.map((column, i) => [column, fields[i] ?? '']));
  });
}

/**
 * The data a file gives, as the JSON text the form's data box shows: a JSON file as it is
 * (checked to parse), a CSV file's rows under `category` (the API's `data` is category → data).
 * @throws Error over 1 MiB, or when the file does not parse.
 */
export async function dataFromFile(file: File, category: string): Promise<string> {
  const refusal = tooLarge(file.size);
  if (refusal) throw new Error(refusal);
  const text = await file.text();
  if (/\.csv$/i.test(file.name) || file.type === 'text/csv') return JSON.stringify({ [category]: csvRows(text) }, null, 2);
  JSON.parse(text);
  return text;
}

/**
 * The data box's text as the API's `data` (category → JSON); undefined when it is empty.
 * @throws Error when it is not a JSON object, or over 1 MiB.
 */
export function parseData(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  const refusal = tooLarge(new TextEncoder().encode(text).length);
  if (refusal) throw new Error(refusal);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('The data is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('The data must be a JSON object: data category → what the system holds.');
  return value as Record<string, unknown>;
}

/** The counts typed per category (empty boxes left out); undefined when none was typed. */
export function parseCounts(typed: Record<string, string>): Record<string, number> | undefined {
  const entries = Object.entries(typed).filter(([, value]) => value.trim() !== '');
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([category, value]) => [category, Number(value)]));
}
