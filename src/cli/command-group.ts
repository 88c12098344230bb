import { type Command, type CommandHelp, HelpRequested, UsageError } from './command.js';
import { cell } from './terminal-io.js';

/**
 * A command group (`token create|list|revoke`): dispatches on the first argument.
 * @throws UsageError for a missing or unknown subcommand (exit 2).
 */
export function commandGroup(
  name: string,
  usage: readonly string[],
  help: Readonly<Record<string, CommandHelp>>,
  subcommands: Record<string, (args: string[]) => Promise<void>>,
): Command {
  return {
    usage,
    help,
    async run(args) {
      const [sub, ...rest] = args;
      const run = sub === undefined ? undefined : subcommands[sub];
      if (!run)
        throw new UsageError(
          sub === undefined ? `missing ${name} subcommand` : `unknown ${name} subcommand '${cell(sub)}'`,
          usage,
        );
      try {
        return await run(rest);
      } catch (error) {
        // `token create --help`: the usage of `token create` only.
        if (!(error instanceof HelpRequested)) throw error;
        const own = usage.filter((line) => line.startsWith(`${name} ${sub} `) || line === `${name} ${sub}`);
        throw new HelpRequested(own.length > 0 ? own : usage);
      }
    },
  };
}
