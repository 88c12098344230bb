import type { CommandHelp } from './command.js';

/** Wraps `text` into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * The help under the usage for the forms in `usage`: for each form of `help` whose words start
 * one of the lines, its summary and its flags, each meaning wrapped under its flag.
 */
export function helpText(usage: readonly string[], help: Readonly<Record<string, CommandHelp>>): string {
  const sections: string[] = [];
  for (const [form, entry] of Object.entries(help)) {
    if (!usage.some((line) => line === form || line.startsWith(`${form} `))) continue;
    const lines = wrap(`${form}: ${entry.summary}`, 98);
    if (entry.flags?.length) lines.push('', '  flags:');
    for (const { flag, meaning } of entry.flags ?? []) {
      const text = wrap(meaning, 72);
      if (flag.length <= 22)
        lines.push(`    ${flag.padEnd(22)}  ${text[0] ?? ''}`, ...text.slice(1).map((t) => `${' '.repeat(28)}${t}`));
      else lines.push(`    ${flag}`, ...text.map((t) => `${' '.repeat(28)}${t}`));
    }
    sections.push(lines.join('\n'));
  }
  return sections.join('\n\n');
}
