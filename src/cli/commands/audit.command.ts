import { readChain } from '../../modules/audit/audit.repository.js';
import { verifyChain } from '../../modules/audit/audit-chain.fns.js';
import {
  type Command,
  CommandFailure,
  cell,
  UsageError,
  limitPositionals,
  parseCommandArgs,
  printLine,
  withExistingServices,
} from '../command.js';

const USAGE = ['audit verify'];

/**
 * `privacyctl audit verify`: recomputes the audit hash chain. Exit 0 with `audit chain intact: N
 * entries`; exit 1 naming the first broken entry (edited, removed or reordered).
 */
export const auditCommand: Command = {
  usage: USAGE,
  async run(args) {
    const { positionals } = parseCommandArgs(args, {}, USAGE);
    if (positionals[0] !== 'verify')
      throw new UsageError(
        positionals[0] === undefined ? 'missing audit subcommand' : `unknown audit subcommand '${cell(positionals[0])}'`,
        USAGE,
      );
    limitPositionals(positionals, 1, USAGE);
    await withExistingServices(async (services) => {
      const { entries, head } = await readChain(services.database.db);
      const problem = verifyChain(entries, head);
      if (problem)
        throw new CommandFailure(`audit chain broken at entry ${problem.seq}: ${problem.problem.replaceAll('_', ' ')}`);
      printLine(`audit chain intact: ${entries.length} entries`);
    });
  },
};
