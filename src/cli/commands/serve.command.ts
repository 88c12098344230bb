import { type Command, limitPositionals, parseCommandArgs } from '../command.js';

const USAGE = ['serve'];

/**
 * `privacyctl serve`: the HTTP service, exactly as `npm start` runs it (src/server.ts `main`).
 * Resolves once listening; SIGTERM/SIGINT close the server and then the database.
 */
export const serveCommand: Command = {
  usage: USAGE,
  async run(args) {
    const { positionals } = parseCommandArgs(args, {}, USAGE);
    limitPositionals(positionals, 0, USAGE);
    // Loaded on demand: the other commands need neither Fastify nor its plugins.
    const { main } = await import('../../server.js');
    await main();
  },
};
