/**
 * What a `DATABASE_URL` names, for a log line or a message: the kind and the place, never a
 * credential. `sqlite:./data/privacy.db` → `sqlite ./data/privacy.db`;
 * `postgres://app:secret@db:5432/prod?options=-c%20search_path%3Dtenant` →
 * `postgres db:5432/prod (schema tenant)`. User name, password and every other query
 * parameter are left out; a PostgreSQL URL that cannot be parsed is `postgres (unparsable URL)`.
 *
 * @param url - a `DATABASE_URL` as loadConfig accepted it (`sqlite:PATH` or `postgres(ql)://…`).
 */
export function databaseLabel(url: string): string {
  if (url.startsWith('sqlite:')) return `sqlite ${url.slice('sqlite:'.length)}`;
  if (!URL.canParse(url)) return 'postgres (unparsable URL)';
  const parsed = new URL(url);
  // libpq: an empty host means the local socket (or `?host=/run/postgresql`).
  const queryHost = parsed.searchParams.get('host');
  const host = parsed.hostname || (queryHost?.startsWith('/') ? queryHost : null) || 'localhost';
  const port = parsed.port || parsed.searchParams.get('port') || '5432';
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default)';
  const schema = /search_path\s*=\s*([^\s,]+)/.exec(parsed.searchParams.get('options') ?? '')?.[1];
  return `postgres ${host}:${port}/${database}${schema ? ` (schema ${schema})` : ''}`;
}
