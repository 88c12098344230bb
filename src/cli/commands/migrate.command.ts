import { migrateToLatest } from '../../db/migrator.js';
import { type Command, limitPositionals, parseCommandArgs, printLine, withDatabase } from '../command.js';

const USAGE = ['migrate'];

/**
 * `privacyctl migrate`: brings the schema of `DATABASE_URL` up to date.
 * Prints each migration it applied, one per line, or `up to date`.
 */
export const migrateCommand: Command = {
  usage: USAGE,
  help: {
    migrate: {
      summary:
        'brings the schema of DATABASE_URL up to date (creating a SQLite file and its folder when missing) and prints each migration it applied, or "up to date". serve and worker do this at start unless MIGRATE_ON_START=false.',
    },
  },
  async run(args) {
    const { positionals } = parseCommandArgs(args, {}, USAGE);
    limitPositionals(positionals, 0, USAGE);
    const applied = await withDatabase((database) => migrateToLatest(database.db));
    if (applied.length === 0) printLine('up to date');
    for (const name of applied) printLine(`applied ${name}`);
  },
};
