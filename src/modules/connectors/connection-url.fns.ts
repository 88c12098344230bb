import { X509Certificate } from 'node:crypto';
import { type AllowedHost, hostAllowed } from '../../lib/allowed-hosts.js';

/** The database kinds the connectors run on (PRODUCT §2.14): PostgreSQL, and MySQL/MariaDB. */
export type ConnectorKind = 'postgres' | 'mysql';

/** A connection URL taken apart. Holds the password: never log, audit or echo it. */
export interface ConnectionTarget {
  readonly kind: ConnectorKind;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  /** TLS: off, on without verification (`require`), or on with certificate and name checks (`verify-full`). */
  readonly tls: 'disable' | 'require' | 'verify-full';
  /** PEM text of the CA certificate(s) `verify-full` trusts instead of the system's store (`connection.sslrootcert`). */
  readonly ca?: string;
}

/** A database system's `connection` (PRODUCT §2.14): the URL and, for `verify-full`, the CA's PEM text. */
export interface ConnectionSettings {
  readonly url: string;
  /** PEM text (never a file path) of the CA certificate(s) that signed the server's certificate. */
  readonly sslrootcert?: string;
}

/** The one query parameter each kind's URL takes: TLS. Any other is refused by name. */
const URL_PARAMETER: Record<ConnectorKind, string> = { postgres: 'sslmode', mysql: 'ssl' };

const SCHEMES: Record<ConnectorKind, readonly string[]> = {
  postgres: ['postgres:', 'postgresql:'],
  mysql: ['mysql:', 'mariadb:'],
};
const DEFAULT_PORT: Record<ConnectorKind, number> = { postgres: 5432, mysql: 3306 };

/**
 * Reads `postgres://user:password@host:port/database?sslmode=…` or `mysql://…` / `mariadb://…`
 * (`?ssl=true|verify`). Every message names the rule broken, never the URL or its parts.
 * @returns the target, or the problems.
 */
export function parseConnectionUrl(kind: ConnectorKind, url: string): { target: ConnectionTarget } | { problems: string[] } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problems: ['the connection url is not a valid URL'] };
  }
  const problems: string[] = [];
  if (!SCHEMES[kind].includes(parsed.protocol))
    problems.push(`a ${kind} connection url starts with ${SCHEMES[kind].map((s) => `${s}//`).join(' or ')}`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!parsed.hostname) problems.push('the connection url names no host');
  if (!database || database.includes('/')) problems.push('the connection url names no database (…/DATABASE)');
  if (!parsed.username) problems.push('the connection url names no user');
  const mode =
    kind === 'postgres' ? (parsed.searchParams.get('sslmode') ?? 'disable') : (parsed.searchParams.get('ssl') ?? 'false');
  const tls = (
    {
      disable: 'disable',
      prefer: 'disable',
      false: 'disable',
      require: 'require',
      true: 'require',
      'verify-full': 'verify-full',
      verify: 'verify-full',
    } as const
  )[mode as 'disable'];
  if (!tls)
    problems.push(
      kind === 'postgres' ? 'sslmode should be disable, require or verify-full' : 'ssl should be false, true or verify',
    );
  if (problems.length > 0) return { problems };
  return {
    target: {
      kind,
      host: parsed.hostname.replace(/^\[|\]$/g, ''),
      port: parsed.port ? Number(parsed.port) : DEFAULT_PORT[kind],
      user: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
      database,
      tls: tls ?? 'disable',
    },
  };
}

/**
 * The URL's query parameters other than its kind's TLS one, each refused by name (at
 * registration; a system stored before this check still runs, its extra parameters unread).
 */
function unsupportedParameters(kind: ConnectorKind, url: string): string[] {
  let names: string[];
  try {
    names = [...new Set(new URL(url).searchParams.keys())];
  } catch {
    return [];
  }
  return names
    .filter((name) => name !== URL_PARAMETER[kind])
    .map((name) =>
      name === 'sslrootcert'
        ? "sslrootcert in the url would be a file path on the service's host: give the CA certificate's PEM text in connection.sslrootcert"
        : `the connection url parameter '${name.slice(0, 40)}' is not supported (the url takes ${URL_PARAMETER[kind]} only)`,
    );
}

/** At most this many characters of PEM text in `sslrootcert` (a chain of a few certificates). */
export const MAX_SSLROOTCERT = 20_000;

/** Why `pem` is not a CA certificate's PEM text, or null. Never echoes it. */
function sslrootcertProblem(pem: string): string | null {
  if (pem.length > MAX_SSLROOTCERT) return `sslrootcert holds at most ${MAX_SSLROOTCERT} characters of PEM text`;
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    return 'sslrootcert is the PEM text of the CA certificate (-----BEGIN CERTIFICATE-----…), not a file path';
  try {
    new X509Certificate(pem);
  } catch {
    return 'sslrootcert does not read as a PEM certificate';
  }
  return null;
}

/**
 * A connection's target: the URL taken apart and, with `sslrootcert`, its CA for `verify-full`.
 * @returns the target, or the problems, each keyed by the `connection` field it is about.
 */
export function parseConnection(
  kind: ConnectorKind,
  connection: ConnectionSettings,
): { target: ConnectionTarget } | { problems: { field: string; msg: string }[] } {
  const problems: { field: string; msg: string }[] = [];
  const parsed = parseConnectionUrl(kind, connection.url);
  if ('problems' in parsed) problems.push(...parsed.problems.map((msg) => ({ field: 'url', msg })));
  const ca = connection.sslrootcert;
  if (ca !== undefined) {
    const problem = sslrootcertProblem(ca);
    if (problem) problems.push({ field: 'sslrootcert', msg: problem });
    else if ('target' in parsed && parsed.target.tls !== 'verify-full')
      problems.push({
        field: 'sslrootcert',
        msg: `sslrootcert is used only to verify the server: set ${kind === 'postgres' ? 'sslmode=verify-full' : 'ssl=verify'} in the url`,
      });
  }
  if (problems.length > 0 || 'problems' in parsed) return { problems };
  return { target: ca === undefined ? parsed.target : { ...parsed.target, ca } };
}

/**
 * The registration check of a connection (PRODUCT §2.14; its schema refuses unknown keys): only the TLS URL parameter,
 * well formed for its kind, a CA that reads, and its host allowed by `CONNECTOR_ALLOWED_HOSTS`.
 * @returns problems (sentences without the URL or the PEM) keyed by field; empty: fine.
 */
export function checkConnection(
  kind: ConnectorKind,
  connection: ConnectionSettings,
  allowed: readonly AllowedHost[],
): { field: string; msg: string }[] {
  const parameters = unsupportedParameters(kind, connection.url).map((msg) => ({ field: 'url', msg }));
  const result = parseConnection(kind, connection);
  if ('problems' in result) return [...parameters, ...result.problems];
  if (parameters.length > 0) return parameters;
  if (!hostAllowed(allowed, result.target.host, result.target.port))
    return [
      {
        field: 'url',
        msg: 'the connection host is not allowed by CONNECTOR_ALLOWED_HOSTS (an operator allows hosts, host:port or CIDRs there)',
      },
    ];
  return [];
}

/** {@link checkConnection} of a bare URL: its sentences. */
export function checkConnectionUrl(kind: ConnectorKind, url: string, allowed: readonly AllowedHost[]): string[] {
  return checkConnection(kind, { url }, allowed).map((p) => p.msg);
}
