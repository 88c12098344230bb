/**
 * privacyctl (PRODUCT.md §3): the operator CLI, thin over the same services as the HTTP API.
 * Exit codes: 0 success, 1 failure (reason on stderr), 2 bad usage (usage on stderr). `--help` or
 * `-h` after any command or subcommand prints its usage, what it does and every flag with its
 * meaning and allowed values on stdout, exit 0. A command's module is loaded only when that
 * command runs or shows its help (command-table.ts).
 *
 * @module
 */
import { ConfigError } from '../config.js';
import { HelpRequested, UsageError } from './command.js';
import { helpText } from './help-text.js';
import { cell } from './terminal-io.js';
import { type CommandEntry, COMMANDS } from './command-table.js';

const TABLE: Readonly<Record<string, CommandEntry>> = COMMANDS;
const ALL_USAGE = [...Object.values(TABLE).flatMap((c) => c.usage), 'help'];
const HELP = new Set(['help', '--help', '-h']);
const HELP_FOOTER = [
  'Every command reads DATABASE_URL (sqlite:PATH or postgres://…); `serve` also HOST, PORT, LOG_LEVEL.',
  'Secrets: prefer `--secret-stdin` to `--secret S`, which shell history and `ps` can show.',
  '`COMMAND --help` shows one command. Exit codes: 0 success, 1 failure, 2 bad usage.',
].join('\n');

/** `usage: privacyctl …` with one line per form, continuation lines aligned. */
export function usageText(usage: readonly string[] = ALL_USAGE): string {
  return usage.map((line, i) => `${i === 0 ? 'usage: ' : '       '}privacyctl ${line}`).join('\n');
}

/** Prints why `error` ended the command and returns the exit code. Never prints a stack. */
function report(prefix: string, error: unknown): number {
  if (error instanceof UsageError) {
    console.error(`${prefix}: ${error.message}\n${usageText(error.usage)}`);
    return 2;
  }
  if (error instanceof ConfigError) {
    console.error(`${prefix}: ${error.message}`);
    return 2;
  }
  console.error(`${prefix}: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

/**
 * Runs privacyctl.
 *
 * @param argv - the arguments after the script (`process.argv.slice(2)`).
 * @returns the exit code: 0, 1 or 2. Never throws. For `serve`, resolves once listening.
 */
export async function run(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name !== undefined && HELP.has(name)) {
    console.log(`${usageText()}\n\n${HELP_FOOTER}`);
    return 0;
  }
  const entry = name !== undefined && Object.hasOwn(TABLE, name) ? TABLE[name] : undefined;
  if (name === undefined || entry === undefined) {
    return report(
      'privacyctl',
      new UsageError(name === undefined ? 'missing command' : `unknown command '${cell(name)}'`, ALL_USAGE),
    );
  }
  const command = await entry.load();
  const printHelp = (usage: readonly string[]) => {
    const help = helpText(usage, command.help);
    console.log(help === '' ? usageText(usage) : `${usageText(usage)}\n\n${help}`);
    return 0;
  };
  if (args[0] !== undefined && HELP.has(args[0])) return printHelp(command.usage);
  try {
    await command.run(args);
    return 0;
  } catch (error) {
    if (error instanceof HelpRequested) return printHelp(error.usage);
    return report(`privacyctl ${name}`, error);
  }
}
