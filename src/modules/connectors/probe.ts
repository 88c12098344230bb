import { isSystemCategory } from '../data-categories/data-categories.fns.js';
import { classifyDriverError, ConnectorError } from './connector.errors.js';
import { openTarget, type ConnectorTaskInput } from './connector-run.js';
import type { Collection, Dataset } from './dataset.types.js';
import { type CollectionCheck, datasetChecks } from './dataset-warnings.js';
import type { CannotMask, Unindexed } from './masking-fit.fns.js';
import type { SqlSession } from './sql-session.js';
import { tableName } from './sql-dialect.fns.js';
import { buildTraversal } from './traversal.fns.js';

/**
 * One collection's state on the target (PRODUCT §2.14 `…/test`, §2.17): whether it exists and
 * can be read and written, the fields whose masking its columns refuse, and the searched columns
 * without an index; those two lists are null when the table could not be looked at.
 */
export interface CollectionProbe {
  name: string;
  exists: boolean;
  can_read: boolean;
  can_write: boolean;
  cannot_mask: readonly CannotMask[] | null;
  unindexed: readonly Unindexed[] | null;
}

const UNKNOWN: CollectionCheck = { cannot_mask: null, unindexed: null };

/** What `POST /api/v1/data-systems/{id}/test` answers. `error`: why it is unreachable, without the URL. */
export interface ProbeResult {
  reachable: boolean;
  latency_ms: number | null;
  collections: CollectionProbe[];
  error?: string;
}

/** Runs `sql` in a transaction that is always rolled back; the failure reason, or null when it ran. */
async function attempt(session: SqlSession, begin: string, sql: string): Promise<string | null> {
  try {
    await session.run(begin, []);
    await session.run(sql, []);
    return null;
  } catch (error) {
    return classifyDriverError(error).reason;
  } finally {
    await session.run('ROLLBACK', []).catch(() => undefined);
  }
}

async function probeCollection(
  session: SqlSession,
  dataset: Dataset,
  c: Collection,
  check: CollectionCheck,
): Promise<CollectionProbe> {
  const q = session.dialect.quote;
  const table = tableName(session.dialect, dataset.schema, c.name);
  const read = await attempt(
    session,
    session.dialect.beginReadOnly,
    `SELECT ${c.fields.map((f) => q(f.name)).join(', ')} FROM ${table} WHERE 1 = 0`,
  );
  const exists = read !== 'missing_table';
  // What an erasure or correction may write there: each field it could mask (a user.* category,
  // never a key or read_only), or the rows themselves for a `delete` collection.
  const targets = c.fields.filter((f) => !f.primary_key && !f.read_only && f.data_categories.some((k) => !isSystemCategory(k)));
  // WHERE 1 = 0 touches no row, and the transaction is rolled back: the privilege check is all that runs.
  const write = c.delete_rows
    ? `DELETE FROM ${table} WHERE 1 = 0`
    : targets.length === 0
      ? null
      : `UPDATE ${table} SET ${targets.map((f) => `${q(f.name)} = ${q(f.name)}`).join(', ')} WHERE 1 = 0`;
  const canWrite =
    !exists || read === 'missing_column'
      ? false
      : write === null || (await attempt(session, session.dialect.beginWrite, write)) === null;
  return { name: c.name, exists, can_read: read === null, can_write: canWrite, ...(exists ? check : UNKNOWN) };
}

/**
 * Tests a database system (PRODUCT §2.14, §2.17): reachable (through the allowed-hosts check),
 * the latency of connecting and one round trip, and for each collection whether its table exists,
 * its declared fields can be read, and what an erasure writes there can be written: the fields it
 * could mask, or the rows of a `delete` collection (true when it writes nothing there); then what
 * the catalog says: `cannot_mask` (NOT NULL + null, UNIQUE + a fixed rewrite, too long) and
 * `unindexed` (searched columns no index starts with). The probes touch no row and are rolled
 * back: nothing is written.
 */
export async function testConnection(
  input: Pick<ConnectorTaskInput, 'kind' | 'url' | 'sslrootcert' | 'system' | 'dataset' | 'limits' | 'allowedHosts'>,
): Promise<ProbeResult> {
  const started = performance.now();
  let session: SqlSession;
  try {
    session = await openTarget(input);
    await session.run('SELECT 1', []);
  } catch (error) {
    const message = error instanceof ConnectorError ? error.message : `system ${input.system}: the database could not be reached`;
    return {
      reachable: false,
      latency_ms: null,
      collections: input.dataset.collections.map((c) => ({
        name: c.name,
        exists: false,
        can_read: false,
        can_write: false,
        ...UNKNOWN,
      })),
      error: message,
    };
  }
  const latency = Math.round(performance.now() - started);
  try {
    const checks = await datasetChecks(session, input.dataset, buildTraversal(input.dataset), null);
    const collections: CollectionProbe[] = [];
    for (const c of input.dataset.collections)
      collections.push(await probeCollection(session, input.dataset, c, checks?.get(c.name) ?? UNKNOWN));
    return { reachable: true, latency_ms: latency, collections };
  } finally {
    await session.close();
  }
}
