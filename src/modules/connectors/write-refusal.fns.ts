/**
 * What a driver error says about where a write was refused (PRODUCT §2.17: "a refused write names
 * the system, collection and column, never the value"): PostgreSQL gives `column` and
 * `constraint` as fields of its error; MySQL and MariaDB only in the message, which also holds the
 * refused value (`Duplicate entry '<value>' for key 'email'`). Messages are therefore read from
 * their fixed end, only the identifier after the last fixed phrase is taken, and the caller keeps
 * a name only when the dataset or the catalog confirms it.
 */

/** Where a refused write hit, as far as the error tells; nothing in it is a value. */
export interface RefusalHints {
  /** The column the error names. */
  readonly column: string | null;
  /** The constraint or index the error names. */
  readonly constraint: string | null;
  /** PostgreSQL `22001` ("value too long for type character varying(5)"): the type and length; the error names no column. */
  readonly tooLongFor: { readonly type: string; readonly length: number } | null;
  /** True when the name came from a MySQL/MariaDB message (to be confirmed by the catalog before it is shown). */
  readonly fromMessage: boolean;
}

const NONE: RefusalHints = { column: null, constraint: null, tooLongFor: null, fromMessage: false };

/** The text after the last `marker`, or null. */
function after(message: string, marker: string): string | null {
  const at = message.lastIndexOf(marker);
  return at === -1 ? null : message.slice(at + marker.length);
}

/** The last identifier of a MySQL column reference: `` `db`.`t`.`c` `` or `'c'`. */
function lastIdentifier(text: string): string | null {
  const quoted = /'([^']*)'$/.exec(text) ?? /`((?:[^`]|``)*)`$/.exec(text);
  return quoted ? (quoted[1] as string).replaceAll('``', '`') : null;
}

/** MySQL/MariaDB: the column or key a message names, by error number. */
function mysqlHints(errno: number, message: string): RefusalHints {
  const hints = (column: string | null, constraint: string | null): RefusalHints => ({
    column,
    constraint,
    tooLongFor: null,
    fromMessage: true,
  });
  switch (errno) {
    case 1048: // Column 'e' cannot be null
      return hints(/^Column '(.*)' cannot be null$/.exec(message)?.[1] ?? null, null);
    case 1406: // Data too long for column 'e' at row 1
    case 1264: // Out of range value for column 'n' at row 1
    case 1265: // Data truncated for column 'n' at row 1
    case 1292: // Incorrect <type> value: '<value>' for column `db`.`t`.`c` at row 1
    case 1366: {
      const tail = after(message, ' for column ');
      return hints(tail === null ? null : lastIdentifier(tail.replace(/ at row \d+$/, '')), null);
    }
    case 1062: {
      // Duplicate entry '<value>' for key '<key>' (MySQL 8.0.19+: '<table>.<key>')
      const tail = after(message, " for key '");
      return hints(null, tail?.endsWith("'") ? tail.slice(0, -1) : null);
    }
    case 3819: // Check constraint '<name>' is violated.
      return hints(null, /Check constraint '(.*)' is violated\.?$/.exec(message)?.[1] ?? null);
    case 4025: // CONSTRAINT `<name>` failed for `db`.`t`
      return hints(null, /^CONSTRAINT `((?:[^`]|``)*)` failed for /.exec(message)?.[1]?.replaceAll('``', '`') ?? null);
    case 1216:
    case 1452: {
      // Cannot add or update a child row: a foreign key constraint fails (`db`.`t`, CONSTRAINT `fk` FOREIGN KEY (`c`) REFERENCES …)
      const key = /, CONSTRAINT `((?:[^`]|``)*)` FOREIGN KEY \(`((?:[^`]|``)*)`\) REFERENCES /.exec(message);
      return hints(key?.[2] ?? null, key?.[1] ?? null);
    }
    case 1217:
    case 1451: // a row of another table refers to the changed one: its constraint, not a column of this collection
      return hints(null, /, CONSTRAINT `((?:[^`]|``)*)` FOREIGN KEY /.exec(message)?.[1] ?? null);
    default:
      return NONE;
  }
}

/** The column, constraint or type a refused write's driver error names (PostgreSQL fields, MySQL/MariaDB messages). */
export function refusalHints(error: unknown): RefusalHints {
  const e = error as { code?: unknown; errno?: unknown; column?: unknown; constraint?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return NONE;
  const message = typeof e.message === 'string' ? e.message : '';
  if (typeof e.errno === 'number') return mysqlHints(e.errno, message);
  const length = e.code === '22001' ? /^value too long for type (.+)\((\d+)\)$/.exec(message) : null;
  return {
    column: typeof e.column === 'string' ? e.column : null,
    constraint: typeof e.constraint === 'string' ? e.constraint : null,
    tooLongFor: length ? { type: length[1] as string, length: Number(length[2]) } : null,
    fromMessage: false,
  };
}
