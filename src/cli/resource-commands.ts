/**
 * The `list` and `remove` shapes the resource commands (`integration`, `endpoint`, `system`,
 * `token`) share: one place parses `[--workspace W] [--json]` and the one positional ID, and
 * prints JSON or a table, so each command says only what it lists and how a row looks.
 */
import type { Services } from '../services.js';
import { type FlagHelp, checkedFlag, limitPositionals, parseCommandArgs, printLine, withExistingServices } from './command.js';

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
  const { values, positionals } = parseCommandArgs(args, { workspace: { type: 'string' }, json: { type: 'boolean' } }, usage);
  limitPositionals(positionals, 0, usage);
  const workspace = checkedFlag(values.workspace, '--workspace', 200, usage, false);
  const items = await withExistingServices((services) => read(services, workspace === undefined ? '*' : [workspace]));
  if (values.json) printLine(JSON.stringify(items, null, 2));
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
