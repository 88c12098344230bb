import { type Command, CommandFailure, UsageError } from '../command.js';

/**
 * A command group whose implementation is a later issue: checks the subcommand (bad usage is
 * still exit 2), then fails with `not available yet (reason)`.
 */
function notYetAvailable(name: string, subcommands: readonly string[], reason: string): Command {
  const usage = subcommands.length === 0 ? [name] : [`${name} ${subcommands.join('|')}`];
  return {
    usage,
    async run(args) {
      const sub = args[0];
      if (subcommands.length > 0 && (sub === undefined || !subcommands.includes(sub))) {
        throw new UsageError(sub === undefined ? `missing ${name} subcommand` : `unknown ${name} subcommand '${sub}'`, usage);
      }
      throw new CommandFailure(`not available yet (${reason})`);
    },
  };
}

/** `privacyctl worker`: the request-processing worker (a later issue). */
export const workerCommand = notYetAvailable('worker', [], 'request processing is a later issue');

/** `privacyctl audit verify`: checks the audit chain (a later issue). */
export const auditCommand = notYetAvailable('audit', ['verify'], 'audit verification is a later issue');
