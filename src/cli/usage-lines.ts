/**
 * The usage lines of every privacyctl command (each without the leading `privacyctl `), in the
 * order `privacyctl --help` lists them: read by command-table.ts without loading any command, and
 * by each command module for its own usage. A module of its own, importing nothing, so that the
 * table (which loads the commands) and the commands (which read their lines) do not import each other.
 *
 * @module
 */
export const USAGE_LINES = {
  migrate: ['migrate'],
  serve: ['serve'],
  worker: ['worker'],
  token: [
    "token create --workspace W|'*' [--workspace W2] --scope S [--scope S2] [--system KEY [--system KEY2]] [--name N]",
    'token list [--json]',
    'token revoke ID',
  ],
  policy: ['policy get --workspace W [--repository R]', "policy set --workspace W [--repository R] --json '{…}'"],
  integration: [
    'integration add --kind github|gitlab|identity --workspace W [--namespace N] [--format standard|clerk|workos] [--subject-provider P] --secret S|--secret-stdin',
    'integration list [--workspace W] [--json]',
    'integration remove ID',
  ],
  endpoint: [
    'endpoint add --workspace W --url URL [--event-types T[,T…]]… [--description D]',
    'endpoint list [--workspace W] [--json]',
    'endpoint remove ID',
    'endpoint rotate ID',
  ],
  system: [
    'system add --workspace W --key K --name N --categories C [--categories C2] --request-types T [--request-types T2] [--endpoint-id EP] [--due-days D]',
    'system list [--workspace W] [--json]',
    'system remove ID',
  ],
  drp: [
    'drp agent add --workspace W --agent-id A --name N --verify-key K [--web-url U] [--identity-assurance-url U] [--technical-contact C] [--business-contact C] [--confirm-with-consumer]',
    'drp agent list [--workspace W] [--json]',
    'drp agent remove ID',
    'drp directory-entry --workspace W',
  ],
  audit: ['audit verify'],
  dataset: ['dataset generate (--url URL | --url-stdin) [--schema S]'],
} as const satisfies Readonly<Record<string, readonly string[]>>;
