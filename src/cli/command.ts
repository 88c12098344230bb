import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type Config, loadConfig } from '../config.js';
// Types only: the database layer and the services are loaded when a command opens them
// (withDatabase, withServices), never for help, a usage error or a command that needs neither.
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';

/** One flag in a command's help: how it is written (`--workspace W`) and what it means, allowed values included. */
export interface FlagHelp {
  readonly flag: string;
  readonly meaning: string;
}

/** What `privacyctl COMMAND [SUBCOMMAND] --help` prints under the usage: what it does, and every flag. */
export interface CommandHelp {
  readonly summary: string;
  readonly flags?: readonly FlagHelp[];
}

/** One command group of privacyctl (`token`, `policy`, …). */
export interface Command {
  /** Usage lines, each without the leading `privacyctl `. */
  readonly usage: readonly string[];
  /**
   * Help per form, keyed by the words that start its usage lines (`token create`, `migrate`):
   * `token --help` prints every form's, `token create --help` only that one's.
   */
  readonly help: Readonly<Record<string, CommandHelp>>;
  /** Runs the command with the arguments after its name. @throws UsageError, CommandFailure. */
  run(args: string[]): Promise<void>;
}

/** Bad usage (unknown subcommand or flag, missing or invalid value): exit code 2, usage on stderr. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: readonly string[],
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The command ran but could not do what was asked: exit code 1, the message on stderr. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `--help` or `-h` among a command's arguments: `main` prints `usage` on stdout and exits 0.
 * Not an error; thrown so that a command stops before it opens the database or reads stdin.
 */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
  constructor(readonly usage: readonly string[]) {
    super('help requested');
  }
}

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * Flags renamed for one spelling everywhere (issue 23, item 11): old name → new name. The old
 * one is still accepted wherever the command takes the new one, with a one-line note on stderr.
 */
const RENAMED_FLAGS: Readonly<Record<string, string>> = { 'workspace-id': 'workspace' };

/** Edit distance (insertions, deletions, substitutions; an adjacent swap counts 1). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The known flag nearest to `name` (without dashes): within an edit distance of 2 (1 for names
 * of up to 4 characters), or one the name begins (`--work` → `--workspace`); null when none is near.
 */
export function nearestFlag(name: string, known: readonly string[]): string | null {
  let best: { flag: string; score: number } | null = null;
  for (const flag of known) {
    const score = name.length >= 3 && flag.startsWith(name) ? 0.5 : distance(name, flag);
    if (score <= (name.length <= 4 ? 1 : 2) && (best === null || score < best.score)) best = { flag, score };
  }
  return best?.flag ?? null;
}

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

/**
 * Opens the database named by `DATABASE_URL`, runs `fn`, and closes the database however `fn` ends.
 *
 * @throws ConfigError from loadConfig; whatever `fn` throws.
 */
export async function withDatabase<T>(
  fn: (database: Database, config: Config) => Promise<T>,
  options: { mustExist?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  const { createDatabase } = await import('../db/database.js');
  const database = createDatabase(config.databaseUrl, { ...options, statementTimeoutMs: config.pgStatementTimeoutMs });
  try {
    return await fn(database, config);
  } finally {
    await database.close();
  }
}

/**
 * Like {@link withDatabase}, after migrating to the latest schema (so a fresh database works;
 * with `MIGRATE_ON_START=false` it only checks the schema is current, and fails if not), with
 * the services wired as the server wires them.
 */
export async function withServices<T>(fn: (services: Services, config: Config) => Promise<T>): Promise<T> {
  return withDatabase(async (database, config) => {
    const [{ prepareSchema }, { openServices }] = await Promise.all([import('../db/migrator.js'), import('../services.js')]);
    await prepareSchema(database.db, config.migrateOnStart);
    return fn(await openServices({ config, database }), config);
  });
}

/**
 * For commands that only read (`audit verify`, `token list`, `policy get`, `integration list`):
 * like {@link withServices}, but never creates or migrates a database. A SQLite file that does
 * not exist, a database (or PostgreSQL schema) that was never migrated, or one behind this
 * release is refused: an empty new database would answer "intact, 0 entries" or "no tokens".
 *
 * @throws DatabaseMissingError, CommandFailure (never migrated), SchemaNotCurrentError.
 */
export async function withExistingServices<T>(fn: (services: Services, config: Config) => Promise<T>): Promise<T> {
  return withDatabase(
    async (database, config) => {
      const [{ pendingMigrations, SchemaNotCurrentError }, { migrations }] = await Promise.all([
        import('../db/migrator.js'),
        import('../db/migrations/index.js'),
      ]);
      const pending = await pendingMigrations(database.db);
      if (pending.length === Object.keys(migrations).length)
        throw new CommandFailure(
          'the database has no schema: it was never migrated (check DATABASE_URL; `privacyctl migrate` creates it)',
        );
      if (pending.length > 0) throw new SchemaNotCurrentError(pending);
      const { openServices } = await import('../services.js');
      return fn(await openServices({ config, database }), config);
    },
    { mustExist: true },
  );
}

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

/**
 * A command group (`token create|list|revoke`): dispatches on the first argument.
 * @throws UsageError for a missing or unknown subcommand (exit 2).
 */
export function commandGroup(
  name: string,
  usage: readonly string[],
  help: Readonly<Record<string, CommandHelp>>,
  subcommands: Record<string, (args: string[]) => Promise<void>>,
): Command {
  return {
    usage,
    help,
    async run(args) {
      const [sub, ...rest] = args;
      const run = sub === undefined ? undefined : subcommands[sub];
      if (!run)
        throw new UsageError(
          sub === undefined ? `missing ${name} subcommand` : `unknown ${name} subcommand '${cell(sub)}'`,
          usage,
        );
      try {
        return await run(rest);
      } catch (error) {
        // `token create --help`: the usage of `token create` only.
        if (!(error instanceof HelpRequested)) throw error;
        const own = usage.filter((line) => line.startsWith(`${name} ${sub} `) || line === `${name} ${sub}`);
        throw new HelpRequested(own.length > 0 ? own : usage);
      }
    },
  };
}

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
