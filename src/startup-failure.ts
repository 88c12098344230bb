import { databaseLabel } from './db/database-label.js';

/** The service could not start for a reason the operator fixes in the environment; its message is one sentence. */
export class StartupFailure extends Error {
  override name = 'StartupFailure';
}

/** Network errors of a connection attempt (Node's `code`), as a few plain words. */
const UNREACHABLE: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
};

/** PostgreSQL's SQLSTATEs for a login or database the server refuses. */
const REFUSED: Readonly<Record<string, string>> = {
  '28P01': 'the password was refused',
  '28000': 'the login was refused',
  '3D000': 'the database does not exist',
  '3F000': 'the schema does not exist',
};

/**
 * A PostgreSQL that cannot be reached or refuses the login, as one sentence naming
 * `DATABASE_URL` and the database's kind and place ({@link databaseLabel}: never the URL itself,
 * which may hold a password); null for any other error.
 */
export function databaseStartFailure(error: unknown, databaseUrl: string): StartupFailure | null {
  if (databaseUrl.startsWith('sqlite:')) return null;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const reason = typeof code === 'string' ? (UNREACHABLE[code] ?? REFUSED[code]) : undefined;
  if (reason === undefined) return null;
  return new StartupFailure(
    `cannot use the database of DATABASE_URL (${databaseLabel(databaseUrl)}): ${reason}; check DATABASE_URL and that PostgreSQL is running there`,
  );
}

/** The listen error of a port in use or not permitted, as one sentence naming `PORT`; null for any other error. */
export function listenFailure(error: unknown, host: string, port: number): StartupFailure | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'EADDRINUSE')
    return new StartupFailure(
      `PORT ${port} on ${host} is already in use (is the service already running?); stop that process or set PORT to a free port`,
    );
  if (code === 'EACCES')
    return new StartupFailure(
      `PORT ${port} on ${host} may not be used by this user (ports below 1024 need privileges); set PORT`,
    );
  if (code === 'EADDRNOTAVAIL')
    return new StartupFailure(`HOST ${host} is not an address of this machine; set HOST (PORT ${port})`);
  return null;
}
