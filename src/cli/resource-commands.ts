/**
 * The `list` and `remove` shapes the resource commands (`integration`, `endpoint`, `system`,
 * `token`) share: one place parses `[--workspace W] [--json]` and the one positional ID, and
 * prints JSON or a table, so each command says only what it lists and how a row looks.
 */
import type { Services } from '../services.js';
import { type CommandHelp, type FlagHelp, CommandFailure } from './command.js';
import { checkedFlag, limitPositionals, parseCommandArgs } from './command-args.js';
import { cell, printLine } from './terminal-io.js';
import { withExistingServices, withServices } from './with-database.js';
import { parseFlags } from './flag-args.js';

/** `'*'` (every workspace) or the one named by `--workspace`, as the services' list calls take it. */
export type WorkspaceScope = '*' | string[];

/** The help of `--workspace W` and `--json` on a `list` that lists `what` (e.g. "endpoints"). */
export function listFlagsHelp(what: string): FlagHelp[] {
  return [
    { flag: '--workspace W', meaning: `only this workspace's ${what} (default: every workspace).` },
    { flag: '--json', meaning: 'print the API resources as JSON instead of a table.' },
  ];
}

/**
 * The help of a resource's `list` (with {@link listFlagsHelp}) and `remove` forms, keyed as
 * `Command.help` wants (`"<group> list"`, `"<group> remove"`).
 *
 * @param what what `list` lists, plural (e.g. "endpoints").
 */
export function listRemoveHelp(
  group: string,
  what: string,
  summaries: { list: string; remove: string },
): Record<string, CommandHelp> {
  return {
    [`${group} list`]: { summary: summaries.list, flags: listFlagsHelp(what) },
    [`${group} remove`]: { summary: summaries.remove },
  };
}

/**
 * `… list [--workspace W] [--json]`: reads the items of every workspace (or of W) and prints them as
 * pretty JSON or with `printTable`.
 *
 * @throws UsageError (exit 2) for an unknown flag, a positional, or a W over 200 characters.
 */
export async function listInWorkspaces<T>(
  args: string[],
  usage: readonly string[],
  read: (services: Services, workspaces: WorkspaceScope) => Promise<T[]>,
  printTable: (items: T[]) => void,
): Promise<void> {
  const values = parseFlags(args, { workspace: { type: 'string' }, json: { type: 'boolean' } }, usage);
  const workspace = checkedFlag(values.workspace, '--workspace', 200, usage, false);
  const items = await withExistingServices((services) => read(services, workspace === undefined ? '*' : [workspace]));
  if (values.json) printJson(items);
  else printTable(items);
}

/**
 * The one positional ID of `remove`, `revoke` or `rotate` (no flags).
 *
 * @param maxLength the longest ID the resource has (characters).
 * @throws UsageError (exit 2) when it is missing, repeated, flagged or too long.
 */
export function positionalId(args: string[], usage: readonly string[], maxLength = 40): string {
  const { positionals } = parseCommandArgs(args, {}, usage);
  limitPositionals(positionals, 1, usage);
  return checkedFlag(positionals[0], 'ID', maxLength, usage) ?? '';
}

/** Prints `value` as pretty JSON (two-space indent), as `add` and `list --json` print API resources. */
export function printJson(value: unknown): void {
  printLine(JSON.stringify(value, null, 2));
}

/**
 * `… remove ID`: removes one resource and prints `removed ID`.
 *
 * @param what the resource as the failure names it ("data system": `no data system ID`).
 * @param remove resolves false when there is no such resource (see {@link falseWhen}).
 * @throws UsageError (exit 2) for a missing or bad ID; CommandFailure (exit 1) when there is none.
 */
export async function removeById(
  args: string[],
  usage: readonly string[],
  what: string,
  remove: (services: Services, id: string) => Promise<boolean>,
): Promise<void> {
  const id = positionalId(args, usage);
  const removed = await withServices((services) => remove(services, id));
  if (!removed) throw new CommandFailure(`no ${what} ${cell(id)}`);
  printLine(`removed ${id}`);
}

/** Resolves true once `work` is done, false when it fails with a `notFound` error; any other error is thrown. */
export async function falseWhen(work: Promise<unknown>, notFound: abstract new (...args: never[]) => Error): Promise<boolean> {
  try {
    await work;
    return true;
  } catch (error) {
    if (error instanceof notFound) return false;
    throw error;
  }
}
