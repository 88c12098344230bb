/**
 * Every privacyctl command by name: its usage lines and how to load it. `main.ts` loads a
 * command's module only when that command runs (or shows its own help), so `privacyctl --help`,
 * a usage error or a light command never loads the modules of the others, nor the composition
 * root (services.ts) and its ≈ 400 modules: each start of the CLI cost ≈ 1.2 s of CPU when
 * every command was imported up front (docs/development.md, "Run things"). The usage lines live
 * in usage-lines.ts, once: each command module takes its own from there, and `privacyctl --help`
 * lists them all without loading any command.
 *
 * @module
 */
import type { Command } from './command.js';
import { USAGE_LINES } from './usage-lines.js';

/** A command's usage lines (each without the leading `privacyctl `) and its module, loaded on demand. */
export interface CommandEntry {
  readonly usage: readonly string[];
  load(): Promise<Command>;
}

/** In the order `privacyctl --help` lists them. */
export const COMMANDS = {
  migrate: {
    usage: USAGE_LINES.migrate,
    load: async () => (await import('./commands/migrate.command.js')).migrateCommand,
  },
  serve: {
    usage: USAGE_LINES.serve,
    load: async () => (await import('./commands/serve.command.js')).serveCommand,
  },
  worker: {
    usage: USAGE_LINES.worker,
    load: async () => (await import('./commands/worker.command.js')).workerCommand,
  },
  token: {
    usage: USAGE_LINES.token,
    load: async () => (await import('./commands/token.command.js')).tokenCommand,
  },
  policy: {
    usage: USAGE_LINES.policy,
    load: async () => (await import('./commands/policy.command.js')).policyCommand,
  },
  integration: {
    usage: USAGE_LINES.integration,
    load: async () => (await import('./commands/integration.command.js')).integrationCommand,
  },
  endpoint: {
    usage: USAGE_LINES.endpoint,
    load: async () => (await import('./commands/endpoint.command.js')).endpointCommand,
  },
  system: {
    usage: USAGE_LINES.system,
    load: async () => (await import('./commands/system.command.js')).systemCommand,
  },
  drp: {
    usage: USAGE_LINES.drp,
    load: async () => (await import('./commands/drp.command.js')).drpCommand,
  },
  audit: {
    usage: USAGE_LINES.audit,
    load: async () => (await import('./commands/audit.command.js')).auditCommand,
  },
  dataset: {
    usage: USAGE_LINES.dataset,
    load: async () => (await import('./commands/dataset.command.js')).datasetCommand,
  },
} as const satisfies Readonly<Record<string, CommandEntry>>;

export type CommandName = keyof typeof COMMANDS;
