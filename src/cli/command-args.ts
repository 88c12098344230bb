import { type ParseArgsConfig, parseArgs } from 'node:util';
import { HelpRequested, UsageError } from './command.js';
import { nearestFlag } from './nearest-flag.js';
import { cell } from './terminal-io.js';

/** The flags a command form takes, as `node:util` `parseArgs` reads them. */
export type Options = NonNullable<ParseArgsConfig['options']>;

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * Flags renamed for one spelling everywhere (issue 23, item 11): old name → new name. The old
 * one is still accepted wherever the command takes the new one, with a one-line note on stderr.
 */
const RENAMED_FLAGS: Readonly<Record<string, string>> = { 'workspace-id': 'workspace' };

/** `unknown flag --workspce; did you mean --workspace?` (the suggestion only when one is near). */
function unknownFlag(rawName: string, options: Options): string {
  const near = rawName.startsWith('--') ? nearestFlag(rawName.slice(2), [...Object.keys(options), 'help']) : null;
  return `unknown flag ${rawName}${near === null ? '' : `; did you mean --${near}?`}`;
}

/**
 * `args` with every renamed flag ({@link RENAMED_FLAGS}) the command takes under its new name
 * written in the new spelling (`--workspace-id=x` → `--workspace=x`), and one note per old
 * spelling on stderr.
 */
function renameOldFlags(args: string[], options: Options): string[] {
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const renamed = [...args];
  const noted = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || !token.rawName.startsWith('--') || !Object.hasOwn(RENAMED_FLAGS, token.name)) continue;
    const now = RENAMED_FLAGS[token.name] ?? token.name;
    if (Object.hasOwn(options, token.name) || !Object.hasOwn(options, now)) continue;
    renamed[token.index] = token.inlineValue ? `--${now}=${token.value ?? ''}` : `--${now}`;
    if (!noted.has(token.name)) process.stderr.write(`note: --${token.name} is now --${now} (the old spelling still works)\n`);
    noted.add(token.name);
  }
  return renamed;
}

type ArgToken = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/**
 * Our own message for an option token that strict parsing would refuse, or null when it is fine.
 * (Node's messages quote unevenly: `… as in '-- "--x"`.) A string option's value may not start
 * with `-` (other than `-` itself) unless given inline (`--name=-x`), as in strict mode.
 */
function optionProblem(token: ArgToken, options: Options): string | null {
  if (token.kind !== 'option') return null;
  const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
  if (option === undefined) return unknownFlag(token.rawName, options);
  if (option.type === 'boolean') return token.value === undefined ? null : `${token.rawName} takes no value`;
  if (token.value === undefined) return `${token.rawName} needs a value`;
  if (!token.inlineValue && token.value.startsWith('-') && token.value !== '-')
    return `${token.rawName} needs a value (for one that starts with '-', write ${token.rawName}=VALUE)`;
  return null;
}

/**
 * `node:util` `parseArgs` in strict mode, positionals allowed. `--help` or `-h` anywhere before a
 * `--` (even where a flag's value should be) asks for help. A renamed flag's old spelling
 * (`--workspace-id`) is read as the new one (`--workspace`) with a note on stderr; an unknown
 * flag is refused naming the nearest known one.
 *
 * @returns `{ values, positionals }` typed from `options`.
 * @throws HelpRequested (with `usage`) for `--help`/`-h`; UsageError (with `usage`) for an
 *   unknown flag, a flag missing its value or a boolean flag given one.
 */
export function parseCommandArgs<const O extends Options>(given: string[], options: O, usage: readonly string[]) {
  const args = renameOldFlags(given, options);
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const help = tokens.some(
    (t) =>
      t.kind === 'option' && (HELP_FLAGS.has(t.rawName) || (t.value !== undefined && !t.inlineValue && HELP_FLAGS.has(t.value))),
  );
  if (help) throw new HelpRequested(usage);
  for (const token of tokens) {
    const problem = optionProblem(token, options);
    if (problem !== null) throw new UsageError(problem, usage);
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch {
    // Not reached for the cases above; Node's own message is not shown (its quotes are uneven).
    throw new UsageError('invalid options', usage);
  }
}

/** @throws UsageError when there are more than `max` positional arguments. */
export function limitPositionals(positionals: string[], max: number, usage: readonly string[]): void {
  const extra = positionals[max];
  if (extra !== undefined) throw new UsageError(`unexpected argument '${cell(extra)}'`, usage);
}

/**
 * Checks a flag's value: present (when `required`) and 1–`maxLength` characters.
 *
 * @returns the value, or undefined when absent and optional.
 * @throws UsageError naming the flag.
 */
export function checkedFlag(
  value: string | undefined,
  flag: string,
  maxLength: number,
  usage: readonly string[],
  required = true,
): string | undefined {
  if (value === undefined) {
    if (required) throw new UsageError(`${flag} is required`, usage);
    return undefined;
  }
  if (value.length === 0 || value.length > maxLength) throw new UsageError(`${flag} must be 1–${maxLength} characters`, usage);
  return value;
}
