import { commandWithoutArguments } from '../flag-args.js';

/**
 * `privacyctl serve`: the HTTP service, exactly as `npm start` runs it (src/server.ts `main`).
 * Resolves once listening; SIGTERM/SIGINT close the server and then the database.
 */
export const serveCommand = commandWithoutArguments(
  'serve',
  'runs the HTTP service as npm start does: migrates, listens on HOST:PORT (default 127.0.0.1:8080; the console at /console/) and, unless WORKER_IN_SERVER=false, runs the worker too. Stops at SIGTERM or SIGINT. Settings: the environment (README, "Configuration").',
  async () => {
    // Loaded on demand: the other commands need neither Fastify nor its plugins.
    const { main } = await import('../../server.js');
    await main();
  },
);
