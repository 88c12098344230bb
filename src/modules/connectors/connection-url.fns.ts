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
}

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
 * The registration check of a connection URL (PRODUCT §2.14): well formed for its kind and its
 * host allowed by `CONNECTOR_ALLOWED_HOSTS`. @returns sentences without the URL; empty: fine.
 */
export function checkConnectionUrl(kind: ConnectorKind, url: string, allowed: readonly AllowedHost[]): string[] {
  const result = parseConnectionUrl(kind, url);
  if ('problems' in result) return result.problems;
  if (!hostAllowed(allowed, result.target.host, result.target.port))
    return ['the connection host is not allowed by CONNECTOR_ALLOWED_HOSTS (an operator allows hosts, host:port or CIDRs there)'];
  return [];
}
