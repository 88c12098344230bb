import { stringify } from 'yaml';
import type { AllowedHost } from '../../lib/allowed-hosts.js';
import { openTarget } from './connector-run.js';
import type { ConnectorKind } from './connection-url.fns.js';
import type { SqlSession } from './sql-session.js';
import { asConnectorError } from './read-pass.js';

/** A column as information_schema describes it. */
export interface ColumnInfo {
  table: string;
  column: string;
  dataType: string;
  length: number | null;
  primaryKey: boolean;
  /** `table.column` this column's foreign key names, if any. */
  references: string | null;
}

const EMAIL_LIKE = /(^|_)e-?mail(_address)?$/i;

/** Maps an SQL type to a Fides `data_type`. */
function fidesType(sqlType: string): string {
  const t = sqlType.toLowerCase();
  if (/int|serial/.test(t)) return 'integer';
  if (/numeric|decimal|real|double|float/.test(t)) return 'float';
  if (/bool|bit/.test(t)) return 'boolean';
  if (/json/.test(t)) return 'object';
  return 'string';
}

/**
 * A draft Fides dataset from columns (PRODUCT §2.14 `privacyctl dataset generate`): one collection
 * per table, primary keys as `primary_key`, foreign keys as references (no direction: both ways), e-mail-like columns as the `email` identity labelled
 * `user.contact.email`. Other categories are left for a person to choose. @returns YAML.
 */
export function draftDataset(fidesKey: string, schema: string | null, columns: readonly ColumnInfo[]): string {
  const tables = [...new Set(columns.map((c) => c.table))];
  const collections = tables.map((table) => ({
    name: table,
    fields: columns
      .filter((c) => c.table === table)
      .map((c) => {
        const meta: Record<string, unknown> = {};
        if (EMAIL_LIKE.test(c.column)) meta.identity = 'email';
        if (c.primaryKey) meta.primary_key = true;
        // No direction: both ways, so the table is reached from whichever side an identity is on.
        if (c.references) meta.references = [{ dataset: fidesKey, field: c.references }];
        meta.data_type = fidesType(c.dataType);
        if (c.length !== null && meta.data_type === 'string') meta.length = c.length;
        return {
          name: c.column,
          ...(EMAIL_LIKE.test(c.column)
            ? { data_categories: ['user.contact.email'] }
            : c.primaryKey
              ? { data_categories: ['system.operations'] }
              : {}),
          fides_meta: meta,
        };
      }),
  }));
  const dataset = {
    fides_key: fidesKey,
    name: fidesKey,
    ...(schema ? { fides_meta: { namespace: { schema } } } : {}),
    collections,
  };
  return `# Draft dataset: label every field with its data categories before registering it.\n${stringify({ dataset: [dataset] }, { lineWidth: 0 })}`;
}

const POSTGRES_COLUMNS = `SELECT c.table_name AS t, c.column_name AS c, c.data_type AS d, c.character_maximum_length AS l
  FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
  WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`;
// Keys from pg_catalog: information_schema.constraint_column_usage shows only tables the login owns.
const POSTGRES_KEYS = `SELECT cl.relname AS t, a.attname AS c, CASE co.contype WHEN 'p' THEN 'PRIMARY KEY' ELSE 'FOREIGN KEY' END AS kind,
    rcl.relname AS rt, ra.attname AS rc
  FROM pg_constraint co
  JOIN pg_class cl ON cl.oid = co.conrelid
  JOIN pg_namespace n ON n.oid = cl.relnamespace
  CROSS JOIN LATERAL unnest(co.conkey, coalesce(co.confkey, co.conkey)) AS k(col, rcol)
  JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = k.col
  LEFT JOIN pg_class rcl ON co.contype = 'f' AND rcl.oid = co.confrelid
  LEFT JOIN pg_attribute ra ON co.contype = 'f' AND ra.attrelid = co.confrelid AND ra.attnum = k.rcol
  WHERE n.nspname = $1 AND co.contype IN ('p', 'f')`;
const MYSQL_COLUMNS = `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS d, CHARACTER_MAXIMUM_LENGTH AS l FROM information_schema.COLUMNS
  WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE')
  ORDER BY TABLE_NAME, ORDINAL_POSITION`;
const MYSQL_KEYS = `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, CASE WHEN CONSTRAINT_NAME = 'PRIMARY' THEN 'PRIMARY KEY' ELSE 'FOREIGN KEY' END AS kind,
  REFERENCED_TABLE_NAME AS rt, REFERENCED_COLUMN_NAME AS rc FROM information_schema.KEY_COLUMN_USAGE
  WHERE TABLE_SCHEMA = ? AND (CONSTRAINT_NAME = 'PRIMARY' OR REFERENCED_TABLE_NAME IS NOT NULL)`;

/** Reads the columns, primary keys and foreign keys of one schema. */
async function readColumns(session: SqlSession, schema: string): Promise<ColumnInfo[]> {
  const pg = session.dialect.name === 'postgres';
  const cols = (await session.run(pg ? POSTGRES_COLUMNS : MYSQL_COLUMNS, pg ? [schema] : [schema, schema])).rows;
  const keys = (await session.run(pg ? POSTGRES_KEYS : MYSQL_KEYS, [schema])).rows;
  return cols.map((r) => {
    const mine = keys.filter((k) => k.t === r.t && k.c === r.c);
    const fk = mine.find((k) => k.kind === 'FOREIGN KEY' && k.rt);
    return {
      table: String(r.t),
      column: String(r.c),
      dataType: String(r.d),
      length: r.l === null || r.l === undefined ? null : Number(r.l),
      primaryKey: mine.some((k) => k.kind === 'PRIMARY KEY'),
      references: fk ? `${String(fk.rt)}.${String(fk.rc)}` : null,
    };
  });
}

/**
 * Drafts a dataset from a database's information_schema (`privacyctl dataset generate`).
 * `schema` defaults to `public` (PostgreSQL) or the URL's database (MySQL). @returns YAML.
 * @throws ConnectorError (unreachable, permission, …) without the URL.
 */
export async function generateDataset(input: {
  kind: ConnectorKind;
  url: string;
  schema?: string;
  allowedHosts: readonly AllowedHost[];
}): Promise<string> {
  const session = await openTarget({ ...input, system: 'dataset-generate', limits: { statementTimeoutMs: 30_000, maxRows: 0 } });
  try {
    const database = new URL(input.url).pathname.replace(/^\//, '');
    const schema = input.schema ?? (input.kind === 'postgres' ? 'public' : decodeURIComponent(database));
    const columns = await readColumns(session, schema).catch((error: unknown) => {
      throw asConnectorError(error, 'dataset-generate', null);
    });
    const key = `${decodeURIComponent(database)}_${schema}`.replace(/[^A-Za-z0-9_]/g, '_');
    return draftDataset(key, input.schema ?? (input.kind === 'postgres' ? schema : null), columns);
  } finally {
    await session.close();
  }
}
