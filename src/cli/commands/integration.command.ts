import type { ErrorItem } from '../../http/validation/error-item.js';
import { validateValue } from '../../http/validation/validate-value.js';
import type { CreateIntegrationInput, IntegrationResource } from '../../modules/integrations/integration.types.js';
import { INTEGRATION_KINDS, IDENTITY_FORMATS } from '../../modules/integrations/integration.types.js';
import { flagOfField } from '../flag-body.js';
import { listInWorkspaces, listRemoveHelp, printJson, removeById } from '../resource-commands.js';
import { type CommandHelp, CommandFailure, UsageError } from '../command.js';
import { commandGroup } from '../command-group.js';
import { cell, printTable, readStdin } from '../terminal-io.js';
import { withServices } from '../with-database.js';
import { USAGE_LINES } from '../usage-lines.js';
import { parseFlags } from '../flag-args.js';

const USAGE = USAGE_LINES.integration;

/** The operator who acts through the CLI, as audit events name it. */
const ACTOR = 'cli';

const HELP: Record<string, CommandHelp> = {
  'integration add': {
    summary:
      'registers a webhook source (PRODUCT §2.5): a GitHub or GitLab namespace whose events become change events, or an identity provider whose user events are linked to subjects. Prints it as JSON with its webhook path (never the secret).',
    flags: [
      { flag: '--kind K', meaning: `what sends the webhooks. One of: ${INTEGRATION_KINDS.join(', ')}. Required.` },
      { flag: '--workspace W', meaning: 'the workspace its events belong to (1–200 characters). Required.' },
      {
        flag: '--namespace N',
        meaning: 'github, gitlab: the organisation or group whose events it accepts. Required for those kinds.',
      },
      {
        flag: '--format F',
        meaning: `identity: the payload and signature format. One of: ${IDENTITY_FORMATS.join(', ')}. Required for identity.`,
      },
      {
        flag: '--subject-provider P',
        meaning: 'identity: the subject_provider its users are filed under (e.g. clerk). Required for identity.',
      },
      { flag: '--secret S', meaning: 'the shared webhook secret; shell history and ps show it: prefer --secret-stdin.' },
      { flag: '--secret-stdin', meaning: 'read the secret from stdin (one trailing line break dropped).' },
    ],
  },
  ...listRemoveHelp('integration', 'integrations', {
    list: 'lists integrations, oldest first, with their webhook path; never a secret.',
    remove: 'removes the integration ID (int_…); its deliveries are then refused (401).',
  }),
};

const ADD_OPTIONS = {
  kind: { type: 'string' },
  workspace: { type: 'string' },
  namespace: { type: 'string' },
  format: { type: 'string' },
  'subject-provider': { type: 'string' },
  secret: { type: 'string' },
  'secret-stdin': { type: 'boolean' },
} as const;

/** The flag an API body field comes from: `workspace_id` → `--workspace`, the secret → `--secret-stdin` when read so. */
function flagOf(field: string | number | undefined, secretFromStdin: boolean): string {
  if (field === 'secret' && secretFromStdin) return '--secret-stdin';
  return flagOfField(field);
}

/**
 * One line per problem, naming the flag. Only `loc` and `msg` are printed, never `input`: it may
 * be the secret.
 */
function problem(error: ErrorItem, secretFromStdin: boolean): string {
  const field = error.loc[1];
  if (field === 'secret' && error.type === 'missing') return '--secret or --secret-stdin is required';
  if (error.type === 'missing') return `${flagOf(field, secretFromStdin)} is required`;
  return `${flagOf(field, secretFromStdin)}: ${error.msg}`;
}

/**
 * Builds the `POST /api/v1/integrations` body from the flags (an absent flag is an absent field)
 * and validates it with the API's own schema, in Pydantic strict mode.
 *
 * @throws UsageError listing every invalid or missing flag at once.
 */
export async function addBody(args: string[]): Promise<{ input: CreateIntegrationInput; secretFromStdin: boolean }> {
  const values = parseFlags(args, ADD_OPTIONS, USAGE);
  const fromStdin = values['secret-stdin'] === true;
  if (fromStdin && values.secret !== undefined) throw new UsageError('use either --secret or --secret-stdin, not both', USAGE);
  if (fromStdin && process.stdin.isTTY) process.stderr.write('reading the secret from stdin; end it with Ctrl-D\n');
  const secret = fromStdin ? await readStdin() : values.secret;
  const fields: Record<string, string | undefined> = {
    kind: values.kind,
    workspace_id: values.workspace,
    namespace: values.namespace,
    format: values.format,
    subject_provider: values['subject-provider'],
    secret,
  };
  const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  // The API's schema, loaded only here: help and usage errors need none (command-table.ts).
  const { CreateIntegrationBody } = await import('../../http/schemas/integration.schemas.js');
  const errors: ErrorItem[] = [];
  const validated = validateValue(CreateIntegrationBody, body, ['body'], 'strict', errors);
  if (errors.length > 0)
    throw new UsageError(['invalid flags:', ...errors.map((e) => `  ${problem(e, fromStdin)}`)].join('\n'), USAGE);
  return { input: validated as CreateIntegrationInput, secretFromStdin: fromStdin };
}

/**
 * Registers a webhook source and prints it as JSON (the API's resource: never the secret).
 *
 * @throws UsageError (exit 2) for bad flags or a field the kind needs; CommandFailure (exit 1)
 *   when the workspace already has an integration of this kind for the namespace (another
 *   workspace's never matters, nor is it told).
 */
async function add(args: string[]): Promise<void> {
  const { input, secretFromStdin } = await addBody(args);
  const { IntegrationInputError, NamespaceTakenError } = await import('../../modules/integrations/integration.service.js');
  const created = await withServices(async (services) => {
    try {
      return await services.integrations.create(input, ACTOR);
    } catch (error) {
      if (error instanceof IntegrationInputError) {
        const flag = flagOf(error.field, secretFromStdin);
        const message = error.kind === 'missing' ? `${flag} is required for --kind ${input.kind}` : `${flag}: ${error.message}`;
        throw new UsageError(message, USAGE);
      }
      if (error instanceof NamespaceTakenError) {
        throw new CommandFailure(
          `workspace ${cell(input.workspace_id)} already has an integration of kind ${input.kind} for namespace ${cell((input.namespace ?? '').toLowerCase())}`,
        );
      }
      throw error;
    }
  });
  printJson(created);
}

function printIntegrations(items: IntegrationResource[]): void {
  const rows = [['ID', 'KIND', 'WORKSPACE', 'NAMESPACE', 'FORMAT', 'SUBJECT_PROVIDER', 'WEBHOOK_PATH', 'CREATED']];
  for (const i of items) {
    rows.push([
      i.id,
      i.kind,
      cell(i.workspace_id),
      cell(i.namespace ?? '-'),
      i.format ?? '-',
      cell(i.subject_provider ?? '-'),
      i.webhook_path,
      i.created_at,
    ]);
  }
  printTable(rows);
}

/** Lists integrations (all, or of one workspace), oldest first, as a table or `--json`. Never a secret. */
async function list(args: string[]): Promise<void> {
  await listInWorkspaces(args, USAGE, (services, workspaces) => services.integrations.list(workspaces), printIntegrations);
}

/** Removes one integration by id; its deliveries are then refused (401). @throws CommandFailure when there is none. */
async function remove(args: string[]): Promise<void> {
  await removeById(args, USAGE, 'integration', (services, id) => services.integrations.remove(id, ACTOR));
}

/** `privacyctl integration add|list|remove`: webhook sources (PRODUCT.md §2.5, §3), flags named as the API fields. */
export const integrationCommand = commandGroup('integration', USAGE, HELP, { add, list, remove });
