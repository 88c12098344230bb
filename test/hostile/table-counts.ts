/** Row counts of every table of the service, to prove that a refused request stored nothing. */
import { sql } from 'kysely';
import type { Services } from '../../src/services.js';

const TABLES = [
  'privacy_requests',
  'idempotency_records',
  'policy_layers',
  'policy_layer_versions',
  'api_tokens',
  'audit_events',
  'service_keys',
  'integrations',
  'webhook_deliveries',
  'subjects',
  'identity_events',
  'linked_identities',
  'change_events',
  'tombstones',
  'request_results',
  'audit_head',
  'data_systems',
  'data_tasks',
  'opt_outs',
  'privacy_preferences',
  'drp_settings',
  'drp_agents',
  'drp_pairings',
  'drp_requests',
  'drp_digests',
  'drp_callbacks',
  'drp_user_verifications',
] as const;

/** `{table: rows}` for every table of src/db/schema.ts, in one query. */
export async function tableCounts(services: Services): Promise<Record<string, number>> {
  const parts = TABLES.map((table) => sql`select ${table} as t, count(*) as n from ${sql.table(table)}`);
  const { rows } = await sql<{ t: string; n: number | string }>`${sql.join(parts, sql` union all `)}`.execute(
    services.database.db,
  );
  return Object.fromEntries(rows.map((row) => [row.t, Number(row.n)]));
}
