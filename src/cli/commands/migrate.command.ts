import { printLine } from '../terminal-io.js';
import { withDatabase } from '../with-database.js';
import { commandWithoutArguments } from '../flag-args.js';

/**
 * `privacyctl migrate`: brings the schema of `DATABASE_URL` up to date.
 * Prints each migration it applied, one per line, or `up to date`.
 */
export const migrateCommand = commandWithoutArguments(
  'migrate',
  'brings the schema of DATABASE_URL up to date (creating a SQLite file and its folder when missing) and prints each migration it applied, or "up to date". serve and worker do this at start unless MIGRATE_ON_START=false.',
  async () => {
    const applied = await withDatabase(async (database) => {
      const { migrateToLatest } = await import('../../db/migrator.js');
      return migrateToLatest(database.db);
    });
    if (applied.length === 0) printLine('up to date');
    for (const name of applied) printLine(`applied ${name}`);
  },
);
