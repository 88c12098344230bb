/** One flag in a command's help: how it is written (`--workspace W`) and what it means, allowed values included. */
export interface FlagHelp {
  readonly flag: string;
  readonly meaning: string;
}

/** What `privacyctl COMMAND [SUBCOMMAND] --help` prints under the usage: what it does, and every flag. */
export interface CommandHelp {
  readonly summary: string;
  readonly flags?: readonly FlagHelp[];
}

/** One command group of privacyctl (`token`, `policy`, …). */
export interface Command {
  /** Usage lines, each without the leading `privacyctl `. */
  readonly usage: readonly string[];
  /**
   * Help per form, keyed by the words that start its usage lines (`token create`, `migrate`):
   * `token --help` prints every form's, `token create --help` only that one's.
   */
  readonly help: Readonly<Record<string, CommandHelp>>;
  /** Runs the command with the arguments after its name. @throws UsageError, CommandFailure. */
  run(args: string[]): Promise<void>;
}

/** Bad usage (unknown subcommand or flag, missing or invalid value): exit code 2, usage on stderr. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: readonly string[],
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The command ran but could not do what was asked: exit code 1, the message on stderr. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

/**
 * `--help` or `-h` among a command's arguments: `main` prints `usage` on stdout and exits 0.
 * Not an error; thrown so that a command stops before it opens the database or reads stdin.
 */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
  constructor(readonly usage: readonly string[]) {
    super('help requested');
  }
}
