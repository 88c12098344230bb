import type { FastifyBaseLogger } from 'fastify';
import { databaseLabel } from './db/database-label.js';

/** What the service's start announces. */
export interface StartupFacts {
  /** The address the server listens on, as Fastify's `listen` returned it (`http://127.0.0.1:8080`). */
  readonly listeningAt: string;
  /** `DATABASE_URL`; only its kind and place are logged ({@link databaseLabel}). */
  readonly databaseUrl: string;
  /** `WORKER_IN_SERVER`: whether this process runs the request worker. */
  readonly workerInServer: boolean;
}

/**
 * The one line a newcomer reads after `npm start`: where the console is, which database the
 * service uses (kind and place, never a user name or password) and whether the worker runs in
 * this process, e.g. `service ready: console http://127.0.0.1:8080/console/, database sqlite
 * ./data/privacy.db, worker running in this process`. The same facts are fields of the line.
 */
export function startupLine(facts: StartupFacts): { fields: Record<string, string | boolean>; message: string } {
  const consoleUrl = `${facts.listeningAt.replace(/\/+$/, '')}/console/`;
  const database = databaseLabel(facts.databaseUrl);
  const worker = facts.workerInServer
    ? 'running in this process'
    : 'not running here (WORKER_IN_SERVER=false: start `privacyctl worker`)';
  return {
    fields: { console: consoleUrl, database, worker: facts.workerInServer },
    message: `service ready: console ${consoleUrl}, database ${database}, worker ${worker}`,
  };
}

/** Logs {@link startupLine} at `info`. */
export function logStartup(log: FastifyBaseLogger, facts: StartupFacts): void {
  const { fields, message } = startupLine(facts);
  log.info(fields, message);
}
