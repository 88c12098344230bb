import { SCOPES } from '../../modules/principals/scopes.js';
import { USAGE_LINES } from '../usage-lines.js';
import type { TokenSummary } from '../../modules/tokens/token.service.js';
import { type CommandHelp, CommandFailure, UsageError } from '../command.js';
import { checkedFlag } from '../command-args.js';
import { commandGroup } from '../command-group.js';
import { cell, printLine, printTable } from '../terminal-io.js';
import { withExistingServices, withServices } from '../with-database.js';
import { parseFlags } from '../flag-args.js';
import { positionalId, printJson } from '../resource-commands.js';

const USAGE = USAGE_LINES.token;

const HELP: Record<string, CommandHelp> = {
  'token create': {
    summary:
      'creates an API token and prints its secret, shown this once (only its SHA-256 is stored). Send it as Authorization: Bearer TOKEN, or paste it into the console.',
    flags: [
      {
        flag: "--workspace W|'*'",
        meaning: "a workspace the token may act in (1–200 characters), repeated for several; '*' for every workspace. Required.",
      },
      {
        flag: '--scope S',
        meaning: `what it may do, repeated for several. One of: ${SCOPES.join(', ')} (admin implies every other). Required.`,
      },
      {
        flag: '--system KEY',
        meaning: "with tasks:write: limit the token to the data tasks of this data system's key, repeated for several.",
      },
      { flag: '--name N', meaning: 'a name for people, shown in the audit trail as the actor (default: cli).' },
    ],
  },
  'token list': {
    summary: 'lists every token with its scopes, workspaces and dates; never a secret or its hash.',
    flags: [{ flag: '--json', meaning: 'print the list as JSON instead of a table.' }],
  },
  'token revoke': { summary: 'revokes the token ID (tok_…): it is refused (401) from then on.' },
};

/** Creates a token and prints only the secret (shown once; PRODUCT.md §2.2). */
async function create(args: string[]): Promise<void> {
  const options = {
    workspace: { type: 'string', multiple: true },
    scope: { type: 'string', multiple: true },
    system: { type: 'string', multiple: true },
    name: { type: 'string' },
  } as const;
  const values = parseFlags(args, options, USAGE);
  const workspaces = (values.workspace ?? []).map((w) => checkedFlag(w, '--workspace', 200, USAGE) ?? '');
  const scopes = values.scope ?? [];
  const systems = (values.system ?? []).map((key) => checkedFlag(key, '--system', 63, USAGE) ?? '');
  if (workspaces.length === 0) throw new UsageError('--workspace is required', USAGE);
  if (scopes.length === 0) throw new UsageError('--scope is required', USAGE);
  const name = checkedFlag(values.name, '--name', 200, USAGE, false) ?? 'cli';
  const token = await withServices(async (services) => {
    try {
      return (await services.tokens.create({ name, scopes, workspaces, systems, actor: 'cli' })).token;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new UsageError(`${error.message}; valid scopes: ${SCOPES.join(', ')}`, USAGE);
    }
  });
  printLine(token);
}

// A name is operator-supplied text: `cell` keeps control characters out of the terminal.
function printTokens(tokens: TokenSummary[]): void {
  const rows = [['ID', 'NAME', 'SCOPES', 'WORKSPACES', 'CREATED', 'REVOKED']];
  for (const t of tokens)
    rows.push([t.id, cell(t.name), t.scopes.join(','), t.workspaces.map(cell).join(','), t.created_at, t.revoked_at ?? '-']);
  printTable(rows);
}

/** Lists every token (never a secret or its hash), as a table or `--json`. */
async function list(args: string[]): Promise<void> {
  const values = parseFlags(args, { json: { type: 'boolean' } }, USAGE);
  const tokens = await withExistingServices((services) => services.tokens.list());
  if (values.json) printJson(tokens);
  else printTokens(tokens);
}

/** Revokes one token by id. @throws CommandFailure when no active token has that id. */
async function revoke(args: string[]): Promise<void> {
  const id = positionalId(args, USAGE, 200);
  const revoked = await withServices((services) => services.tokens.revoke(id, 'cli'));
  if (!revoked) throw new CommandFailure(`no active token ${id}`);
  printLine(`revoked ${id}`);
}

/** `privacyctl token create|list|revoke`: API tokens (PRODUCT.md §2.2, §3). */
export const tokenCommand = commandGroup('token', USAGE, HELP, { create, list, revoke });
