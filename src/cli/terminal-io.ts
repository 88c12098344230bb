/** Writes `text` and a newline to stdout. */
export function printLine(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Operator-supplied text for a terminal: control characters become `?`. */
export function cell(text: string): string {
  return text.replace(/\p{Cc}/gu, '?');
}

/** Prints `rows` (the first is the header) as left-aligned columns two spaces apart. */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
  for (const row of rows)
    printLine(
      row
        .map((value, i) => value.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    );
}

/**
 * Reads stdin to its end as UTF-8 and drops one trailing line break, so `echo "$S" | …` and
 * `… < file` give the value itself. Used for secrets, which must stay out of argv (shell history, `ps`).
 */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
