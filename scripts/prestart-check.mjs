// `npm start`'s first step (package.json `prestart`), before `npm run build`: refuses at once,
// instead of rebuilding dist/ under a running service for several seconds and failing only then,
// when
//  - PORT on HOST is taken, most often by a service already started; or
//  - the SQLite file of DATABASE_URL is held by another serve or worker process (its `PATH.lock`,
//    src/db/sqlite-process-lock.ts), as when a second `npm start` is given another PORT.
// Exit 0 when both are free, 1 with one sentence naming PORT or DATABASE_URL's file otherwise.
// Reads HOST, PORT and DATABASE_URL as the service does (defaults 127.0.0.1, 8080 and
// sqlite:./data/privacy.db); a value the service would refuse is left for the service to name.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import SQLite from 'better-sqlite3';

const refuse = (reason) => {
  process.stderr.write(`npm start: ${reason}\n`);
  process.exit(1);
};

/** The pid in `PATH.lock.pid`, or 'unknown'. */
function holder(lockPath) {
  try {
    const pid = readFileSync(`${lockPath}.pid`, 'utf8').trim();
    return /^\d+$/.test(pid) ? pid : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Refuses when another process holds the SQLite file's lock; a file not yet made has none. */
function checkSqliteLock(url) {
  const match = /^sqlite:(.+)$/.exec(url);
  if (!match || match[1] === ':memory:') return;
  const lockPath = `${match[1]}.lock`;
  let connection;
  try {
    connection = new SQLite(lockPath, { timeout: 0, fileMustExist: true });
  } catch {
    return; // no lock file: nobody holds it (the service makes and takes it)
  }
  try {
    connection.exec('BEGIN IMMEDIATE');
    connection.exec('ROLLBACK');
  } catch (error) {
    if (error?.code === 'SQLITE_BUSY')
      refuse(
        `${match[1]} (DATABASE_URL) is used by another serve or worker process (pid ${holder(lockPath)}?); ` +
          'stop it, or give this one another DATABASE_URL',
      );
  } finally {
    connection.close();
  }
}

checkSqliteLock(process.env.DATABASE_URL || 'sqlite:./data/privacy.db');

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || '8080');
if (Number.isInteger(port) && port > 0 && port <= 65535) {
  const probe = createServer();
  probe.once('error', (error) =>
    refuse(
      error.code === 'EADDRINUSE'
        ? `PORT ${port} on ${host} is already in use (is the service already running?); stop that process or set PORT to a free port`
        : `PORT ${port} on ${host} cannot be used (${error.code ?? 'unknown error'}); set PORT or HOST`,
    ),
  );
  probe.listen({ host, port, exclusive: true }, () => probe.close());
}
