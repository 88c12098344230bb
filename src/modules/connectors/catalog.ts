import * as Q from './catalog-sql.js';
import type { Row, SqlSession } from './sql-session.js';

/**
 * What the database says of one column (PRODUCT §2.17, "The database's own rules"): its type and
 * length, NOT NULL, UNIQUE, keys, CHECK constraints and whether an index starts with it.
 */
export interface ColumnFacts {
  readonly name: string;
  /** The SQL type as the catalog names it, lower-case (`character varying`, `varchar`, `integer`, …). */
  readonly dataType: string;
  /** The longest value of a character column, in characters; null for other types and unbounded text. */
  readonly length: number | null;
  readonly nullable: boolean;
  readonly primaryKey: boolean;
  /** The column alone is UNIQUE (a constraint or a unique index on it only; the primary key too). */
  readonly unique: boolean;
  /** `table.column` its foreign key names, or null. */
  readonly references: string | null;
  /** CHECK constraints that name this column: `name: definition`. */
  readonly checks: readonly string[];
  /** A (non-partial) index starts with this column, so `column IN (…)` can use it. */
  readonly indexed: boolean;
}

/** One table's columns (in table order) and the planner's row estimate (null: none yet). */
export interface TableFacts {
  readonly name: string;
  readonly estimatedRows: number | null;
  readonly columns: ReadonlyMap<string, ColumnFacts>;
}

/** The tables of one schema (PostgreSQL) or database (MySQL), by name. */
export type Catalog = ReadonlyMap<string, TableFacts>;

/** A constraint or index of a table in one shape across dialects; `columns` in key order (null: an expression). */
export interface KeyFacts {
  table: string;
  name: string;
  kind: 'primary' | 'unique' | 'foreign' | 'check' | 'index';
  columns: (string | null)[];
  /** A foreign key: `table.column` each of `columns` references, in the same order. */
  references: string[] | null;
  definition: string | null;
  partial: boolean;
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const list = (v: unknown): (string | null)[] =>
  Array.isArray(v) ? v.map((x) => (x === null ? null : String(x))) : typeof v === 'string' ? (JSON.parse(v) as string[]) : [];

async function pgKeys(session: SqlSession, schema: string): Promise<KeyFacts[]> {
  const kinds: Record<string, KeyFacts['kind']> = { p: 'primary', u: 'unique', f: 'foreign', c: 'check' };
  const constraints = (await session.run(Q.PG_CONSTRAINTS, [schema])).rows.map((r): KeyFacts => ({
    table: text(r.t),
    name: text(r.name),
    kind: kinds[text(r.kind)] ?? 'check',
    columns: list(r.cols),
    references: r.rt ? list(r.rcols).map((c) => `${text(r.rt)}.${text(c)}`) : null,
    definition: r.def === null || r.def === undefined ? null : text(r.def),
    partial: false,
  }));
  const indexes = (await session.run(Q.PG_INDEXES, [schema])).rows.map((r): KeyFacts => ({
    table: text(r.t),
    name: text(r.name),
    kind: r.uniq === true ? 'unique' : 'index',
    columns: list(r.cols),
    references: null,
    definition: null,
    partial: r.partial === true,
  }));
  return [...constraints, ...indexes];
}

/** MySQL's CHECK constraints with the columns their clause names (backquoted identifiers of the table). */
async function mysqlChecks(session: SqlSession, schema: string): Promise<KeyFacts[]> {
  let tables: Row[];
  let clauses: Row[];
  try {
    tables = (await session.run(Q.MYSQL_CHECK_TABLES, [schema])).rows;
    clauses = (await session.run(Q.MYSQL_CHECK_CLAUSES, [schema])).rows;
  } catch {
    return []; // a server without CHECK constraints (MySQL before 8.0.16)
  }
  return tables.flatMap((t): KeyFacts[] => {
    const clause = clauses.find((c) => c.CONSTRAINT_NAME === t.name && (c.TABLE_NAME === undefined || c.TABLE_NAME === t.t));
    if (!clause) return [];
    const definition = text(clause.CHECK_CLAUSE);
    const named = [...definition.matchAll(/`((?:[^`]|``)+)`/g)].map((m) => (m[1] as string).replaceAll('``', '`'));
    const base = { table: text(t.t), name: text(t.name), references: null, partial: false };
    return [{ ...base, kind: 'check', columns: [...new Set(named)], definition: `CHECK (${definition})` }];
  });
}

async function mysqlKeys(session: SqlSession, schema: string): Promise<KeyFacts[]> {
  const indexes = new Map<string, KeyFacts>();
  for (const r of (await session.run(Q.MYSQL_INDEXES, [schema])).rows) {
    const id = `${text(r.t)}\u0000${text(r.name)}`;
    const kind = r.name === 'PRIMARY' ? 'primary' : Number(r.nu) === 0 ? 'unique' : 'index';
    const index = indexes.get(id) ?? {
      table: text(r.t),
      name: text(r.name),
      kind,
      columns: [],
      references: null,
      definition: null,
      partial: false,
    };
    index.columns.push(r.c === null || r.c === undefined ? null : text(r.c));
    indexes.set(id, index);
  }
  const foreign = new Map<string, KeyFacts>();
  for (const r of (await session.run(Q.MYSQL_FOREIGN_KEYS, [schema])).rows) {
    const id = `${text(r.t)}\u0000${text(r.name)}`;
    const key = foreign.get(id) ?? {
      table: text(r.t),
      name: text(r.name),
      kind: 'foreign' as const,
      columns: [],
      references: [] as string[],
      definition: null,
      partial: false,
    };
    key.columns.push(text(r.c));
    key.references?.push(`${text(r.rt)}.${text(r.rc)}`);
    foreign.set(id, key);
  }
  return [...indexes.values(), ...foreign.values(), ...(await mysqlChecks(session, schema))];
}

/**
 * The keys, unique indexes, plain indexes, foreign keys and CHECK constraints of every table of
 * `schema`. @throws the driver's error.
 */
export function readKeys(session: SqlSession, schema: string): Promise<KeyFacts[]> {
  return session.dialect.name === 'postgres' ? pgKeys(session, schema) : mysqlKeys(session, schema);
}

/** `table.column` the column's foreign key references (its own position in a composite key), or null. */
function foreignTarget(keys: readonly KeyFacts[], column: string): string | null {
  const key = keys.find((k) => k.kind === 'foreign');
  return key?.references?.[key.columns.indexOf(column)] ?? null;
}

/** A column's facts from its catalog row and the keys of its table. */
function columnFacts(row: Row, keys: readonly KeyFacts[]): ColumnFacts {
  const name = text(row.c);
  const mine = keys.filter((k) => k.columns.includes(name));
  const alone = (k: KeyFacts) => k.columns.length === 1 && k.columns[0] === name;
  return {
    name,
    dataType: text(row.d).toLowerCase(),
    length: row.l === null || row.l === undefined ? null : Number(row.l),
    nullable: text(row.n).toUpperCase() === 'YES',
    primaryKey: mine.some((k) => k.kind === 'primary'),
    unique: mine.some((k) => (k.kind === 'unique' || k.kind === 'primary') && alone(k)),
    references: foreignTarget(mine, name),
    checks: mine.filter((k) => k.kind === 'check').map((k) => `${k.name}: ${k.definition ?? ''}`),
    indexed: keys.some((k) => k.kind !== 'foreign' && k.kind !== 'check' && !k.partial && k.columns[0] === name),
  };
}

/** The schema a dataset without `fides_meta.namespace` reaches: the connection's default. */
export async function defaultSchema(session: SqlSession): Promise<string> {
  const sql = session.dialect.name === 'postgres' ? Q.PG_DEFAULT_SCHEMA : Q.MYSQL_DEFAULT_SCHEMA;
  return text((await session.run(sql, [])).rows[0]?.s);
}

/**
 * Reads the tables of `schema` (null: the connection's default) with every column's type,
 * length, NULL-ability, keys, UNIQUE, CHECK constraints and leading indexes, and each table's row
 * estimate (PostgreSQL `pg_class.reltuples`, MySQL `information_schema.TABLES.TABLE_ROWS`).
 * Runs outside any transaction and writes nothing. @throws the driver's error.
 */
export async function readCatalog(session: SqlSession, schema: string | null): Promise<Catalog> {
  const pg = session.dialect.name === 'postgres';
  const name = schema ?? (await defaultSchema(session));
  const columns = (await session.run(pg ? Q.PG_COLUMNS : Q.MYSQL_COLUMNS, [name])).rows;
  const keys = await readKeys(session, name);
  const rows = new Map((await session.run(pg ? Q.PG_ROWS : Q.MYSQL_ROWS, [name])).rows.map((r) => [text(r.t), r.r] as const));
  const keysOf = new Map<string, KeyFacts[]>();
  for (const k of keys) {
    const same = keysOf.get(k.table);
    if (same) same.push(k);
    else keysOf.set(k.table, [k]);
  }
  const catalog = new Map<string, TableFacts>();
  for (const row of columns) {
    const table = text(row.t);
    const facts = catalog.get(table) ?? { name: table, estimatedRows: estimate(rows.get(table)), columns: new Map() };
    (facts.columns as Map<string, ColumnFacts>).set(text(row.c), columnFacts(row, keysOf.get(table) ?? []));
    catalog.set(table, facts);
  }
  return catalog;
}

/** A row estimate as a whole number; null when the database has none (PostgreSQL's -1 before ANALYZE). */
function estimate(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
}
