/**
 * The catalog queries behind {@link readCatalog} (./catalog.ts), per dialect. PostgreSQL reads
 * keys, constraints and indexes from `pg_catalog` (its `information_schema` shows constraints only
 * on tables the login owns) and columns from `information_schema`; MySQL and MariaDB read
 * `information_schema` only. Every query takes the schema as its one parameter (MySQL: the
 * database), never an identifier in the text.
 */

/** Columns: table, column, SQL type, character length, nullable (`YES`/`NO`), in table order. */
export const PG_COLUMNS = `SELECT c.table_name AS t, c.column_name AS c, c.data_type AS d, c.character_maximum_length AS l, c.is_nullable AS n
  FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
  WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`;

/** Primary, unique, foreign-key and CHECK constraints with their columns (in key order) and a CHECK's definition. */
export const PG_CONSTRAINTS = `SELECT cl.relname AS t, co.conname AS name, co.contype AS kind,
    array_to_json(ARRAY(SELECT a.attname FROM unnest(co.conkey) WITH ORDINALITY k(n, i)
      JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = k.n ORDER BY k.i)) AS cols,
    rcl.relname AS rt,
    array_to_json(ARRAY(SELECT a.attname FROM unnest(co.confkey) WITH ORDINALITY k(n, i)
      JOIN pg_attribute a ON a.attrelid = co.confrelid AND a.attnum = k.n ORDER BY k.i)) AS rcols,
    CASE WHEN co.contype = 'c' THEN pg_get_constraintdef(co.oid) END AS def
  FROM pg_constraint co
  JOIN pg_class cl ON cl.oid = co.conrelid
  JOIN pg_namespace n ON n.oid = cl.relnamespace
  LEFT JOIN pg_class rcl ON rcl.oid = co.confrelid
  WHERE n.nspname = $1 AND co.contype IN ('p', 'u', 'f', 'c')`;

/** Indexes: their columns in order (null for an expression), unique, partial (a predicate). */
export const PG_INDEXES = `SELECT cl.relname AS t, i.relname AS name, x.indisunique AS uniq, x.indpred IS NOT NULL AS partial,
    array_to_json(ARRAY(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(n, i)
      LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n ORDER BY k.i)) AS cols
  FROM pg_index x
  JOIN pg_class cl ON cl.oid = x.indrelid
  JOIN pg_class i ON i.oid = x.indexrelid
  JOIN pg_namespace n ON n.oid = cl.relnamespace
  WHERE n.nspname = $1`;

/** The planner's row estimate per table (`reltuples`: -1 before the first ANALYZE on PostgreSQL 14+). */
export const PG_ROWS = `SELECT c.relname AS t, c.reltuples AS r FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`;

/** The connection's default schema. */
export const PG_DEFAULT_SCHEMA = 'SELECT current_schema() AS s';

export const MYSQL_COLUMNS = `SELECT c.TABLE_NAME AS t, c.COLUMN_NAME AS c, c.DATA_TYPE AS d, c.CHARACTER_MAXIMUM_LENGTH AS l, c.IS_NULLABLE AS n
  FROM information_schema.COLUMNS c JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
  WHERE c.TABLE_SCHEMA = ? AND t.TABLE_TYPE = 'BASE TABLE' ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`;

/** Index columns (a UNIQUE constraint and the primary key are indexes here); COLUMN_NAME is null for a functional part. */
export const MYSQL_INDEXES = `SELECT TABLE_NAME AS t, INDEX_NAME AS name, SEQ_IN_INDEX AS seq, COLUMN_NAME AS c, NON_UNIQUE AS nu
  FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`;

/** Foreign-key columns and what they reference. */
export const MYSQL_FOREIGN_KEYS = `SELECT TABLE_NAME AS t, CONSTRAINT_NAME AS name, COLUMN_NAME AS c, REFERENCED_TABLE_NAME AS rt,
    REFERENCED_COLUMN_NAME AS rc
  FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL
  ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`;

/** CHECK constraints by table (MySQL 8.0.16+, MariaDB 10.2+; older servers have no such table: no checks). */
export const MYSQL_CHECK_TABLES = `SELECT TABLE_NAME AS t, CONSTRAINT_NAME AS name FROM information_schema.TABLE_CONSTRAINTS
  WHERE CONSTRAINT_SCHEMA = ? AND CONSTRAINT_TYPE = 'CHECK'`;

/** CHECK clauses (MariaDB adds TABLE_NAME: its CHECK names are per table; MySQL's are per schema). */
export const MYSQL_CHECK_CLAUSES = 'SELECT * FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ?';

export const MYSQL_ROWS = `SELECT TABLE_NAME AS t, TABLE_ROWS AS r FROM information_schema.TABLES
  WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'`;

export const MYSQL_DEFAULT_SCHEMA = 'SELECT DATABASE() AS s';
