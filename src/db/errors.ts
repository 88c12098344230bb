/**
 * True when `error` is a unique-constraint violation from either driver
 * (PostgreSQL SQLSTATE 23505, SQLite SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The violated constraint's name (PostgreSQL) or its column list text (SQLite), for telling constraints apart. */
export function violatedConstraint(error: unknown): string {
  const e = error as { constraint?: string; message?: string } | null;
  return e?.constraint ?? e?.message ?? '';
}
