import type { CreateEndpointInput, WebhookEndpointResource } from '../../modules/outbound-events/webhook-endpoint.types.js';
import { EVENT_TYPES } from '../../modules/outbound-events/event-types.js';
import { type CommandHelp, CommandFailure, UsageError } from '../command.js';
import { commandGroup } from '../command-group.js';
import { cell, printLine, printTable } from '../terminal-io.js';
import { withServices } from '../with-database.js';
import { USAGE_LINES } from '../usage-lines.js';
import { parseFlags } from '../flag-args.js';
import { bodyFromFlags } from '../flag-body.js';
import { falseWhen, listInWorkspaces, listRemoveHelp, printJson, removeById, positionalId } from '../resource-commands.js';

const USAGE = USAGE_LINES.endpoint;

// The API's schema and the service's errors are loaded when a form needs them: help and usage
// errors load neither (command-table.ts).
const endpointSchemas = () => import('../../http/schemas/webhook-endpoint.schemas.js');
const endpointService = () => import('../../modules/outbound-events/webhook-endpoint.service.js');

/** The operator who acts through the CLI, as audit events name it. */
const ACTOR = 'cli';

/** The CLI acts on every workspace (it holds the database itself). */
const everywhere = () => true;

const HELP: Record<string, CommandHelp> = {
  'endpoint add': {
    summary:
      'registers an outbound webhook endpoint (PRODUCT §2.8) and prints it as JSON with its signing secret (whsec_…), shown this once. Events are signed Standard Webhooks messages.',
    flags: [
      { flag: '--workspace W', meaning: 'the workspace whose events it receives (1–200 characters). Required.' },
      {
        flag: '--url URL',
        meaning:
          'where events are POSTed: https:// (http:// and private or loopback addresses only with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true). Required.',
      },
      {
        flag: '--event-types T[,T…]',
        meaning: `the event types it receives, repeated or comma-separated; default every type. One of: ${EVENT_TYPES.join(', ')}.`,
      },
      { flag: '--description D', meaning: 'free text for operators.' },
    ],
  },
  ...listRemoveHelp('endpoint', 'endpoints', {
    list: 'lists webhook endpoints, oldest first, with their status (enabled, failing since …, disabled); never a secret.',
    remove: 'removes the endpoint ID (ep_…) and its pending messages.',
  }),
  'endpoint rotate': {
    summary: 'gives the endpoint ID (ep_…) a new signing secret and prints it; the old secret keeps signing too for 24 hours.',
  },
};

const ADD_OPTIONS = {
  workspace: { type: 'string' },
  url: { type: 'string' },
  'event-types': { type: 'string', multiple: true },
  description: { type: 'string' },
} as const;

/**
 * The `POST /api/v1/webhook-endpoints` body from the flags, validated with the API's schema.
 * `--event-types` may be repeated and each value may list types separated by commas.
 * @throws UsageError listing every invalid or missing flag at once.
 */
async function addBody(args: string[]): Promise<CreateEndpointInput> {
  const values = parseFlags(args, ADD_OPTIONS, USAGE);
  const { CreateEndpointBody } = await endpointSchemas();
  const types = values['event-types']?.flatMap((v) => v.split(',').map((t) => t.trim()));
  const fields: Record<string, unknown> = {
    workspace_id: values.workspace,
    url: values.url,
    event_types: types,
    description: values.description,
  };
  return bodyFromFlags<CreateEndpointInput>(CreateEndpointBody, fields, USAGE);
}

/**
 * Registers a webhook endpoint and prints it as JSON with its secret (`whsec_…`): the only time
 * the secret is shown. @throws UsageError (exit 2) for bad flags or a URL that is not allowed.
 */
async function add(args: string[]): Promise<void> {
  const input = await addBody(args);
  const { ForbiddenDestinationError } = await import('../../modules/outbound-events/address-guard.js');
  const created = await withServices(async (services) => {
    try {
      return await services.webhookEndpoints.create(input, ACTOR);
    } catch (error) {
      if (error instanceof ForbiddenDestinationError) throw new UsageError(`--url: ${error.message}`, USAGE);
      throw error;
    }
  });
  printJson(created);
}

function printEndpoints(items: WebhookEndpointResource[]): void {
  const rows = [['ID', 'WORKSPACE', 'URL', 'EVENT_TYPES', 'STATUS', 'CREATED']];
  for (const e of items) {
    const status = e.disabled ? 'disabled' : e.failing_since ? `failing since ${e.failing_since}` : 'enabled';
    rows.push([e.id, cell(e.workspace_id), cell(e.url), e.event_types?.join(',') ?? '*', status, e.created_at]);
  }
  printTable(rows);
}

/** Lists endpoints (all, or of one workspace), oldest first, as a table or `--json`. Never a secret. */
async function list(args: string[]): Promise<void> {
  await listInWorkspaces(args, USAGE, (services, workspaces) => services.webhookEndpoints.list(workspaces), printEndpoints);
}

/** Runs `work`; an unknown endpoint is a CommandFailure (exit 1). */
async function onEndpoint<T>(id: string, work: () => Promise<T>): Promise<T> {
  const { EndpointNotFoundError } = await endpointService();
  try {
    return await work();
  } catch (error) {
    if (error instanceof EndpointNotFoundError) throw new CommandFailure(`no webhook endpoint ${cell(id)}`);
    throw error;
  }
}

/** Removes an endpoint and its messages. */
async function remove(args: string[]): Promise<void> {
  await removeById(args, USAGE, 'webhook endpoint', async (services, id) => {
    const { EndpointNotFoundError } = await endpointService();
    return falseWhen(services.webhookEndpoints.remove(id, ACTOR, everywhere), EndpointNotFoundError);
  });
}

/** Rotates an endpoint's secret and prints only the new one (the old one signs too for 24 h). */
async function rotate(args: string[]): Promise<void> {
  const id = positionalId(args, USAGE);
  const rotated = await withServices((services) =>
    onEndpoint(id, () => services.webhookEndpoints.rotateSecret(id, ACTOR, everywhere)),
  );
  printLine(rotated.secret);
}

/** `privacyctl endpoint add|list|remove|rotate`: outbound webhook endpoints (PRODUCT §2.8, §3), flags named as the API fields. */
export const endpointCommand = commandGroup('endpoint', USAGE, HELP, { add, list, remove, rotate });
