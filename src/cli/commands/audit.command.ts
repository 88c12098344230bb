import { type Command, CommandFailure, UsageError } from '../command.js';
import { limitPositionals, parseCommandArgs } from '../command-args.js';
import { cell, printLine } from '../terminal-io.js';
import { withExistingServices } from '../with-database.js';
import { USAGE_LINES } from '../usage-lines.js';

const USAGE = USAGE_LINES.audit;

/**
 * `privacyctl audit verify`: recomputes the audit hash chain. Exit 0 with `audit chain intact: N
 * entries`; exit 1 naming the first broken entry (edited, removed or reordered).
 */
export const auditCommand: Command = {
  usage: USAGE,
  help: {
    'audit verify': {
      summary:
        'recomputes the audit hash chain from its first entry: exit 0 with "audit chain intact: N entries", exit 1 naming the first entry edited, removed or reordered. Reads only; never creates or migrates the database.',
    },
  },
  async run(args) {
    const { positionals } = parseCommandArgs(args, {}, USAGE);
    if (positionals[0] !== 'verify')
      throw new UsageError(
        positionals[0] === undefined ? 'missing audit subcommand' : `unknown audit subcommand '${cell(positionals[0])}'`,
        USAGE,
      );
    limitPositionals(positionals, 1, USAGE);
    await withExistingServices(async (services) => {
      // The same check as GET /api/v1/audit-events/verify: in pages, in one read snapshot.
      const { verifyAuditChain } = await import('../../modules/audit/audit-read.repository.js');
      const { entries, problem } = await verifyAuditChain(services.database.db);
      if (problem)
        throw new CommandFailure(`audit chain broken at entry ${problem.seq}: ${problem.problem.replaceAll('_', ' ')}`);
      printLine(`audit chain intact: ${entries} entries`);
    });
  },
};
