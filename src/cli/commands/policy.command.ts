import { type ErrorItem, pydanticError } from '../../http/validation/error-item.js';
import { parseJsonLikePython } from '../../http/validation/python-json.js';
import { validateValue } from '../../http/validation/validate-value.js';
import type { PolicyLayerSettings } from '../../modules/policies/policy.types.js';
import { type CommandHelp, UsageError } from '../command.js';
import { checkedFlag } from '../command-args.js';
import { commandGroup } from '../command-group.js';
import { printLine } from '../terminal-io.js';
import { withExistingServices, withServices } from '../with-database.js';
import { USAGE_LINES } from '../usage-lines.js';
import { parseFlags } from '../flag-args.js';

const USAGE = USAGE_LINES.policy;

const TARGET_FLAGS = [
  { flag: '--workspace W', meaning: 'the workspace (1–200 characters). Required.' },
  { flag: '--repository R', meaning: 'a repository of the workspace (1–500 characters, e.g. acme/api): its own layer.' },
];

const HELP: Record<string, CommandHelp> = {
  'policy get': {
    summary:
      "prints the effective policy of the workspace (or of one of its repositories): defaults, workspace layer and repository layer merged, the stricter value winning, with each value's source.",
    flags: TARGET_FLAGS,
  },
  'policy set': {
    summary:
      'writes the workspace layer (or, with --repository, the repository layer) and prints it; the same checks as PUT /api/v1/policies/… (an unknown key writes nothing).',
    flags: [
      ...TARGET_FLAGS,
      {
        flag: "--json '{…}'",
        meaning:
          'the layer as JSON, e.g. {"regulations":["gdpr","ccpa"],"retention_days":30}; its keys as in the API (docs/product.md, §2.4). Required.',
      },
    ],
  },
};

const TARGET = { workspace: { type: 'string' }, repository: { type: 'string' } } as const;

/** The layer target: workspace 1–200 characters, optional repository 1–500, as the API bounds them. */
function target(values: { workspace?: string; repository?: string }) {
  const workspace = checkedFlag(values.workspace, '--workspace', 200, USAGE) ?? '';
  return { workspace, repository: checkedFlag(values.repository, '--repository', 500, USAGE, false) };
}

/**
 * Parses and validates a layer exactly as `PUT /api/v1/policies/…` does its body (CPython JSON,
 * Pydantic strict mode; unknown keys refused as `extra_forbidden`, so a typo writes nothing).
 *
 * @throws UsageError listing each `loc: msg`.
 */
export async function parseLayerSettings(text: string): Promise<PolicyLayerSettings> {
  const parsed = parseJsonLikePython(text, { markFloats: true });
  if (!parsed.ok) throw new UsageError(`--json is not valid JSON: ${parsed.msg} at position ${parsed.pos}`, USAGE);
  // The API's schema, loaded only here: help and usage errors need none (command-table.ts).
  const { PolicyLayerBody } = await import('../../http/schemas/policy.schemas.js');
  const errors: ErrorItem[] = [];
  // As FastAPI: a JSON null body is a missing body.
  if (parsed.value === null) errors.push(pydanticError.missing(['body'], null));
  const settings = parsed.value === null ? null : validateValue(PolicyLayerBody, parsed.value, ['body'], 'strict', errors);
  if (errors.length > 0)
    throw new UsageError(['invalid --json:', ...errors.map((e) => `  ${e.loc.join('.')}: ${e.msg}`)].join('\n'), USAGE);
  return settings as PolicyLayerSettings;
}

/** Prints the effective policy of a workspace (and repository), as the API returns it. */
async function get(args: string[]): Promise<void> {
  const values = parseFlags(args, TARGET, USAGE);
  const { workspace, repository } = target(values);
  const effective = await withExistingServices((services) => services.policies.effective(workspace, repository ?? ''));
  printLine(JSON.stringify(effective, null, 2));
}

/** Writes the workspace layer (or the repository layer with `--repository`) and prints it. */
async function set(args: string[]): Promise<void> {
  const values = parseFlags(args, { ...TARGET, json: { type: 'string' } }, USAGE);
  const { workspace, repository } = target(values);
  if (values.json === undefined) throw new UsageError('--json is required', USAGE);
  const settings = await parseLayerSettings(values.json);
  const layer = await withServices((services) => services.policies.putLayer(workspace, repository ?? null, settings, 'cli'));
  printLine(JSON.stringify(layer, null, 2));
}

/** `privacyctl policy get|set`: effective policy and policy layers (PRODUCT.md §2.4). */
export const policyCommand = commandGroup('policy', USAGE, HELP, { get, set });
