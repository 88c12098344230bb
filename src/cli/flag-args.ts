import type { Command } from './command.js';
import { limitPositionals, type Options, parseCommandArgs } from './command-args.js';

/**
 * The flags of a form that takes no positional argument (`token create`, `system add`, `serve`):
 * `parseCommandArgs`, then no positional allowed.
 *
 * @returns the flag values, typed from `options`.
 * @throws HelpRequested for `--help`; UsageError (exit 2) for an unknown flag or any positional.
 */
export function parseFlags<const O extends Options>(args: string[], options: O, usage: readonly string[]) {
  const { values, positionals } = parseCommandArgs(args, options, usage);
  limitPositionals(positionals, 0, usage);
  return values;
}

/**
 * A one-form command with neither flags nor arguments (`serve`, `worker`, `migrate`): its usage is
 * its name, its help the one `summary`, and `run` starts only after the arguments are checked.
 *
 * @throws UsageError (from the returned command's `run`) for any flag or argument.
 */
export function commandWithoutArguments(name: string, summary: string, run: () => Promise<void>): Command {
  const usage = [name];
  return {
    usage,
    help: { [name]: { summary } },
    async run(args) {
      parseFlags(args, {}, usage);
      await run();
    },
  };
}
