import type { CreateDataSystemInput, DataSystemResource } from '../../modules/data-systems/data-system.types.js';
import type { Principal } from '../../modules/principals/principal.js';
import { SCOPE_KEYS } from '../../modules/data-categories/data-categories.fns.js';
import { REQUEST_TYPES } from '../../modules/request-model/request-model.js';
import { type CommandHelp, CommandFailure, UsageError } from '../command.js';
import { commandGroup } from '../command-group.js';
import { cell, printTable } from '../terminal-io.js';
import { withServices } from '../with-database.js';
import { USAGE_LINES } from '../usage-lines.js';
import { parseFlags } from '../flag-args.js';
import { bodyFromFlags } from '../flag-body.js';
import { falseWhen, listInWorkspaces, listRemoveHelp, printJson, removeById } from '../resource-commands.js';

const USAGE = USAGE_LINES.system;

// The API's schema and the data systems' errors are loaded when a form needs them: help and
// usage errors load neither (command-table.ts).
const dataSystemTypes = () => import('../../modules/data-systems/data-system.types.js');

/** The operator acting through the CLI: every workspace, as audit events name it. */
const CLI: Principal = { id: 'cli', name: 'cli', scopes: new Set(['admin']), workspaces: '*' };

const HELP: Record<string, CommandHelp> = {
  'system add': {
    summary:
      'registers a data system (PRODUCT §2.9): a downstream system holding personal data that gets a data task for each request of its types whose scope overlaps its categories. With --endpoint-id it is a webhook system (told by a data_task.created event), without one a manual system (an operator marks its tasks done). Prints it as JSON. Database systems (postgres, mysql) are registered through the API (POST /api/v1/data-systems).',
    flags: [
      { flag: '--workspace W', meaning: 'the workspace it belongs to (1–200 characters). Required.' },
      {
        flag: '--key K',
        meaning:
          'its key, unique in the workspace and never reused: 1–63 lower-case letters, digits and -, not starting with - (it names the system in packages: systems.<key>). Required.',
      },
      { flag: '--name N', meaning: 'a name for people (1–200 characters). Required.' },
      {
        flag: '--categories C',
        meaning: `the data categories it holds, repeated or comma-separated, 1–20. Any of: ${SCOPE_KEYS.join(', ')}. Required.`,
      },
      {
        flag: '--request-types T',
        meaning: `the request types it takes part in, repeated or comma-separated. Any of: ${REQUEST_TYPES.join(', ')}. Required.`,
      },
      { flag: '--endpoint-id EP', meaning: "a webhook endpoint (ep_…) of the same workspace that receives the system's tasks." },
      { flag: '--due-days D', meaning: 'days each task has from its creation, 1–3650 (default: none).' },
    ],
  },
  ...listRemoveHelp('system', 'systems', {
    list: 'lists live data systems with their categories, request types and endpoint.',
    remove: 'deletes the data system ID (sys_…); its open tasks stay.',
  }),
};

const ADD_OPTIONS = {
  workspace: { type: 'string' },
  key: { type: 'string' },
  name: { type: 'string' },
  categories: { type: 'string', multiple: true },
  'request-types': { type: 'string', multiple: true },
  'endpoint-id': { type: 'string' },
  'due-days': { type: 'string' },
} as const;

/** `--categories a,b --categories c` → `['a', 'b', 'c']`; absent stays absent. */
function listFlag(values: string[] | undefined): string[] | undefined {
  return values?.flatMap((v) => v.split(',')).map((v) => v.trim());
}

/** `--due-days 30` → 30; text that is not a whole number is passed on as text, for the schema to refuse. */
function integerFlag(value: string | undefined): number | string | undefined {
  return value !== undefined && /^\d{1,6}$/.test(value) ? Number(value) : value;
}

/**
 * The `POST /api/v1/data-systems` body from the flags, validated with the API's own schema.
 * @throws UsageError listing every invalid or missing flag at once.
 */
export async function addBody(args: string[]): Promise<CreateDataSystemInput> {
  const values = parseFlags(args, ADD_OPTIONS, USAGE);
  const { CreateDataSystemBody } = await import('../../http/schemas/data-system.schemas.js');
  const fields: Record<string, unknown> = {
    workspace_id: values.workspace,
    key: values.key,
    name: values.name,
    categories: listFlag(values.categories),
    request_types: listFlag(values['request-types']),
    endpoint_id: values['endpoint-id'],
    due_days: integerFlag(values['due-days']),
  };
  return bodyFromFlags<CreateDataSystemInput>(CreateDataSystemBody, fields, USAGE);
}

/**
 * Registers a data system and prints it as JSON (the API's resource).
 * @throws UsageError (exit 2) for bad flags or an endpoint of another workspace; CommandFailure
 *   (exit 1) when the workspace already has (or had) a system with the key.
 */
async function add(args: string[]): Promise<void> {
  const input = await addBody(args);
  const { EndpointNotInWorkspaceError, SystemKeyTakenError } = await dataSystemTypes();
  const created = await withServices(async (services) => {
    try {
      return await services.dataSystems.create(input, CLI.id);
    } catch (error) {
      if (error instanceof EndpointNotInWorkspaceError)
        throw new UsageError('--endpoint-id: not a webhook endpoint of this workspace', USAGE);
      if (error instanceof SystemKeyTakenError)
        throw new CommandFailure(`workspace ${cell(input.workspace_id)} already has a data system with key ${input.key}`);
      throw error;
    }
  });
  printJson(created);
}

function printSystems(items: DataSystemResource[]): void {
  const rows = [['ID', 'WORKSPACE', 'KEY', 'NAME', 'CATEGORIES', 'REQUEST_TYPES', 'ENDPOINT', 'DUE_DAYS']];
  for (const s of items)
    rows.push([
      s.id,
      cell(s.workspace_id),
      s.key,
      cell(s.name),
      s.categories.join(','),
      s.request_types.join(','),
      s.endpoint_id ?? '-',
      s.due_days === null ? '-' : String(s.due_days),
    ]);
  printTable(rows);
}

/** Lists live data systems (all, or of one workspace), as a table or `--json`. */
async function list(args: string[]): Promise<void> {
  await listInWorkspaces(args, USAGE, (services, workspaces) => services.dataSystems.list(workspaces), printSystems);
}

/** Deletes one data system by id (its open tasks stay). @throws CommandFailure when there is no live one. */
async function remove(args: string[]): Promise<void> {
  await removeById(args, USAGE, 'data system', async (services, id) => {
    const { DataSystemNotFoundError } = await dataSystemTypes();
    return falseWhen(services.dataSystems.remove(CLI, id), DataSystemNotFoundError);
  });
}

/** `privacyctl system add|list|remove`: data systems (PRODUCT.md §2.9), flags named as the API fields. */
export const systemCommand = commandGroup('system', USAGE, HELP, { add, list, remove });
