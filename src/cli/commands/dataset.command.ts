import { type Command, CommandFailure, UsageError } from '../command.js';
import { limitPositionals, parseCommandArgs } from '../command-args.js';
import { cell, readStdin } from '../terminal-io.js';
import { USAGE_LINES } from '../usage-lines.js';

const USAGE = USAGE_LINES.dataset;

/** Every address: the operator running the CLI chooses the database (CONNECTOR_ALLOWED_HOSTS binds the API's systems). */
const ANY_HOSTS = '0.0.0.0/0, ::/0';

/**
 * `privacyctl dataset generate --url URL [--schema S]` (PRODUCT §2.14, §2.17): prints a draft Fides
 * dataset (YAML) read from the database's catalog: collections, fields, primary keys, foreign keys
 * as references, e-mail-like columns as the `email` identity, and a masking each column's
 * constraints accept, with the reason as a YAML comment. `--url-stdin` reads the URL
 * from stdin (keeps the password out of shell history and `ps`). The URL is never printed; a
 * database failure exits 1 with its reason, a bad URL or flag exits 2.
 */
export const datasetCommand: Command = {
  usage: USAGE,
  help: {
    'dataset generate': {
      summary:
        "prints a draft Fides dataset (YAML) read from a database's catalog: collections, fields, primary keys, foreign keys as references, e-mail-like columns as the email identity, and from each column's NOT NULL, UNIQUE, CHECK, length and foreign-key constraints a masking it accepts, the reason in a YAML comment. Review it, then register the system with it (POST /api/v1/data-systems). The URL is never printed.",
      flags: [
        {
          flag: '--url URL',
          meaning:
            'the database: postgres://, postgresql://, mysql:// or mariadb://; shell history and ps show it: prefer --url-stdin.',
        },
        { flag: '--url-stdin', meaning: 'read the URL from stdin.' },
        { flag: '--schema S', meaning: "the schema (PostgreSQL) or database (MySQL) to read; default the connection's own." },
      ],
    },
  },
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      { url: { type: 'string' }, 'url-stdin': { type: 'boolean' }, schema: { type: 'string' } },
      USAGE,
    );
    if (positionals[0] !== 'generate')
      throw new UsageError(
        positionals[0] === undefined ? 'missing dataset subcommand' : `unknown dataset subcommand '${cell(positionals[0])}'`,
        USAGE,
      );
    limitPositionals(positionals, 1, USAGE);
    if ((values.url === undefined) === (values['url-stdin'] !== true))
      throw new UsageError('give exactly one of --url and --url-stdin', USAGE);
    const url = values.url ?? (await readStdin()).replace(/\r?\n$/, '');
    const scheme = /^([a-z]+):\/\//.exec(url)?.[1];
    const kind =
      scheme === 'postgres' || scheme === 'postgresql' ? 'postgres' : scheme === 'mysql' || scheme === 'mariadb' ? 'mysql' : null;
    if (kind === null) throw new UsageError('--url must start with postgres://, postgresql://, mysql:// or mariadb://', USAGE);
    // Loaded once the arguments are checked: the connectors and their drivers are the heavy part.
    const [{ parseAllowedHosts }, { ConnectorError, generateDataset }] = await Promise.all([
      import('../../lib/allowed-hosts.js'),
      import('../../modules/connectors/connectors.js'),
    ]);
    const allowedHosts = parseAllowedHosts(ANY_HOSTS).hosts;
    try {
      process.stdout.write(
        await generateDataset({ kind, url, ...(values.schema ? { schema: values.schema } : {}), allowedHosts }),
      );
    } catch (error) {
      if (error instanceof ConnectorError)
        throw new CommandFailure(error.message.replace('system dataset-generate', 'dataset generate'));
      throw error;
    }
  },
};
