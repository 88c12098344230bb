import type { DrpAgent, DrpAgentInput } from '../../modules/drp/drp-admin.types.js';
import { type Command, type CommandHelp, CommandFailure, HelpRequested, UsageError } from '../command.js';
import { checkedFlag } from '../command-args.js';
import { commandGroup } from '../command-group.js';
import { cell, printTable } from '../terminal-io.js';
import { withExistingServices, withServices } from '../with-database.js';
import { parseFlags } from '../flag-args.js';
import { bodyFromFlags } from '../flag-body.js';
import { falseWhen, listInWorkspaces, listRemoveHelp, printJson, removeById } from '../resource-commands.js';
import { USAGE_LINES } from '../usage-lines.js';

const USAGE = USAGE_LINES.drp;
const AGENT_USAGE = USAGE.filter((line) => line.startsWith('drp agent '));
const ENTRY_USAGE = USAGE.filter((line) => line.startsWith('drp directory-entry'));

// The API's schema and DRP's errors are loaded when a form needs them: help and usage errors load
// neither (command-table.ts).
const drpErrors = () => import('../../modules/drp/drp-admin.errors.js');

/** The operator who acts through the CLI, as audit events name it. */
const ACTOR = 'cli';

const HELP: Record<string, CommandHelp> = {
  'drp agent add': {
    summary:
      "registers an authorized agent of the Data Rights Protocol 1.0 in a workspace (PRODUCT §2.19, POST /api/v1/drp/agents): the fields of its entry in the DRP operators' agent directory. Trust comes from this registration alone; the agent then pairs (POST /drp/v1/agent/{agent-id}). Prints the registration as JSON, with the key's fingerprint to compare with the agent's.",
    flags: [
      { flag: '--workspace W', meaning: 'the workspace that accepts the agent (1–200 characters). Required.' },
      {
        flag: '--agent-id A',
        meaning:
          "the agent's DRP id, as its directory entry names it: 1–100 of A–Z a–z 0–9 _ -, unique in the workspace. Required.",
      },
      { flag: '--name N', meaning: 'a name for people (1–200 characters). Required.' },
      {
        flag: '--verify-key K',
        meaning:
          "the agent's Ed25519 public key: standard Base64 of its 32 raw bytes (padding optional). The 64-hex form of DRP 0.9 is refused with how to convert it. Required.",
      },
      { flag: '--web-url U', meaning: "the agent's web site (https://)." },
      { flag: '--identity-assurance-url U', meaning: 'where the agent describes how it verifies people (https://).' },
      { flag: '--technical-contact C', meaning: 'a contact for technical matters.' },
      { flag: '--business-contact C', meaning: 'a contact for business matters.' },
      {
        flag: '--confirm-with-consumer',
        meaning: "every request of this agent waits for the person's own code, whatever the agent attests.",
      },
    ],
  },
  ...listRemoveHelp('drp agent', 'agents', {
    list: 'lists the registered DRP agents with their key fingerprint, when they last paired and whether they are disabled.',
    remove: 'removes the agent registration ID (agt_…) and voids its tokens at once; its requests stay.',
  }),
  'drp directory-entry': {
    summary:
      "prints the workspace's DRP Business Discovery Document as JSON (PRODUCT §2.19 directory_entry, the same as GET /api/v1/workspaces/{W}/drp answers): hand it to the DRP operators for the network's service directory. Exits 1 when the workspace has no DRP settings (PUT /api/v1/workspaces/{W}/drp sets them).",
    flags: [{ flag: '--workspace W', meaning: 'the workspace (1–200 characters). Required.' }],
  },
};

const ADD_OPTIONS = {
  workspace: { type: 'string' },
  'agent-id': { type: 'string' },
  name: { type: 'string' },
  'verify-key': { type: 'string' },
  'web-url': { type: 'string' },
  'identity-assurance-url': { type: 'string' },
  'technical-contact': { type: 'string' },
  'business-contact': { type: 'string' },
  'confirm-with-consumer': { type: 'boolean' },
} as const;

/**
 * The `POST /api/v1/drp/agents` body from the flags, validated with the API's own schema.
 * @throws UsageError listing every invalid or missing flag at once.
 */
export async function agentBody(args: string[]): Promise<DrpAgentInput> {
  const values = parseFlags(args, ADD_OPTIONS, AGENT_USAGE);
  const { CreateDrpAgentBody } = await import('../../http/schemas/drp.schemas.js');
  const fields: Record<string, unknown> = {
    workspace_id: values.workspace,
    agent_id: values['agent-id'],
    name: values.name,
    verify_key: values['verify-key'],
    web_url: values['web-url'],
    identity_assurance_url: values['identity-assurance-url'],
    technical_contact: values['technical-contact'],
    business_contact: values['business-contact'],
    confirm_with_consumer: values['confirm-with-consumer'],
  };
  return bodyFromFlags<DrpAgentInput>(CreateDrpAgentBody, fields, AGENT_USAGE);
}

/**
 * Registers an agent and prints it as JSON (the API's resource).
 * @throws UsageError (exit 2) for bad flags or a verify key that is not one; CommandFailure (exit
 *   1) when the workspace already has an agent with the id.
 */
async function add(args: string[]): Promise<void> {
  const input = await agentBody(args);
  const { DrpAgentIdTakenError, VerifyKeyInvalidError } = await drpErrors();
  const { verifyKeyProblemMessage } = await import('../../modules/drp/signed-body.fns.js');
  const created = await withServices(async (services) => {
    try {
      return await services.drpAdmin.registerAgent(input, ACTOR);
    } catch (error) {
      if (error instanceof VerifyKeyInvalidError)
        throw new UsageError(`--verify-key: ${verifyKeyProblemMessage(error.problem)}`, AGENT_USAGE);
      if (error instanceof DrpAgentIdTakenError)
        throw new CommandFailure(`workspace ${cell(input.workspace_id)} already has a DRP agent ${cell(input.agent_id)}`);
      throw error;
    }
  });
  printJson(created);
}

function printAgents(items: DrpAgent[]): void {
  const rows = [['ID', 'WORKSPACE', 'AGENT_ID', 'NAME', 'KEY_FINGERPRINT', 'PAIRED_AT', 'DISABLED']];
  for (const a of items)
    rows.push([
      a.id,
      cell(a.workspace_id),
      cell(a.agent_id),
      cell(a.name),
      a.key_fingerprint,
      a.paired_at ?? '-',
      a.disabled ? 'yes' : 'no',
    ]);
  printTable(rows);
}

/** Lists the agent registrations (all, or of one workspace), as a table or `--json`. */
async function list(args: string[]): Promise<void> {
  await listInWorkspaces(args, AGENT_USAGE, (services, workspaces) => services.drpAdmin.listAgents(workspaces), printAgents);
}

/** Removes one registration by id (its tokens void, its requests stay). @throws CommandFailure when there is none. */
async function remove(args: string[]): Promise<void> {
  await removeById(args, AGENT_USAGE, 'DRP agent', async (services, id) => {
    const { DrpAgentNotFoundError } = await drpErrors();
    return falseWhen(
      services.drpAdmin.removeAgent(id, ACTOR, () => true),
      DrpAgentNotFoundError,
    );
  });
}

/**
 * Prints the workspace's directory entry as JSON.
 * @throws UsageError (exit 2) without `--workspace`; CommandFailure (exit 1) when DRP was never set up there.
 */
async function directoryEntry(args: string[]): Promise<void> {
  const values = parseFlags(args, { workspace: { type: 'string' } }, ENTRY_USAGE);
  const workspace = checkedFlag(values.workspace, '--workspace', 200, ENTRY_USAGE) ?? '';
  const settings = await withExistingServices((services) => services.drpAdmin.getSettings(workspace));
  if (settings === null) throw new CommandFailure(`workspace ${cell(workspace)} has no DRP settings`);
  printJson(settings.directory_entry);
}

const agentGroup = commandGroup('drp agent', AGENT_USAGE, HELP, { add, list, remove });
const HELP_WORDS = new Set(['--help', '-h']);

/**
 * `privacyctl drp agent add|list|remove` and `privacyctl drp directory-entry --workspace W`: DRP
 * agent registrations and the Business Discovery Document (PRODUCT §2.19), flags named as the API
 * fields.
 */
export const drpCommand: Command = {
  usage: USAGE,
  help: HELP,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === 'agent') {
      if (rest[0] !== undefined && HELP_WORDS.has(rest[0])) throw new HelpRequested(AGENT_USAGE);
      return agentGroup.run(rest);
    }
    if (sub === 'directory-entry') return directoryEntry(rest);
    throw new UsageError(sub === undefined ? 'missing drp subcommand' : `unknown drp subcommand '${cell(sub)}'`, USAGE);
  },
};
