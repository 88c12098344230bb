/**
 * The growth benchmark's seed: through the services what is small and has secrets or versions
 * (one GitHub integration per extra workspace, an intake token, the pseudonym key, each
 * workspace's effective policy), then the bulk rows through {@link openBulkWriter}, the audit
 * head moved to the end of the extended chain, and ANALYZE so the planner knows the sizes.
 * Run while the service is stopped (one writer).
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { openServices } from '../../src/services.js';
import { openBulkWriter } from './bulk-insert.js';
import { seedChangeEvents, seedSubjects, type WorkspaceSetup } from './seed-events.js';
import { prng, type SeedPlan } from './seed-plan.js';
import { seedRequests } from './seed-requests.js';

/** What the seed reports: its plan, rows written by table, and how long it took (s). */
export interface SeedReport {
  plan: SeedPlan;
  rows: Record<string, number>;
  seconds: number;
}

interface Prepared {
  setups: Map<string, WorkspaceSetup>;
  pseudonymKey: string;
  principalId: string;
  head: { seq: number; hash: string };
}

/** Integrations, token, keys and policies through the services (as `privacyctl` would). */
async function prepare(databaseUrl: string, plan: SeedPlan): Promise<Prepared> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const database = createDatabase(config.databaseUrl);
  try {
    const services = await openServices({ config, database });
    const existing = await services.integrations.list(['acme']);
    const setups = new Map<string, WorkspaceSetup>();
    for (const ws of plan.workspaces) {
      const integrationId =
        ws === 'acme'
          ? (existing.find((i) => i.kind === 'github')?.id as string)
          : (
              await services.integrations.create(
                { kind: 'github', workspace_id: ws, namespace: `org-${ws}`, secret: randomBytes(20).toString('hex') },
                'bench-growth',
              )
            ).id;
      const { policy, version } = await services.policies.effective(ws, '');
      setups.set(ws, { integrationId, policy, version });
    }
    const intake = await services.tokens.create({
      name: 'intake (seed)',
      scopes: ['privacy:write'],
      workspaces: ['*'],
      actor: 'bench-growth',
    });
    const head = await database.db.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirstOrThrow();
    return { setups, pseudonymKey: services.keys.pseudonymKey, principalId: `token:${intake.id}`, head };
  } finally {
    await database.close();
  }
}

const COUNTED = [
  'subjects',
  'identity_events',
  'linked_identities',
  'change_events',
  'webhook_deliveries',
  'privacy_requests',
  'request_results',
  'idempotency_records',
  'tombstones',
  'audit_events',
];

/** Seeds `plan` into the (migrated, bench-seeded) database at `databaseUrl`. */
export async function seedGrowth(databaseUrl: string, plan: SeedPlan, now: number): Promise<SeedReport> {
  const started = performance.now();
  const prepared = await prepare(databaseUrl, plan);
  const random = prng(20261121);
  const writer = await openBulkWriter(databaseUrl);
  try {
    await seedSubjects(writer, plan, random, now);
    await seedChangeEvents(writer, plan, prepared.setups, prepared.pseudonymKey, random, now);
    const head = await seedRequests(writer, plan, { ...prepared }, random, now);
    await writer.exec(`update audit_head set seq = ${head.seq}, hash = '${head.hash}' where id = 1`);
    await writer.exec('analyze');
    if (databaseUrl.startsWith('sqlite:')) await writer.exec('pragma wal_checkpoint(truncate)');
  } finally {
    await writer.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return { plan, rows: await countRows(databaseUrl), seconds };
}

/** Rows per table of interest. */
export async function countRows(databaseUrl: string): Promise<Record<string, number>> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const database = createDatabase(config.databaseUrl);
  try {
    const rows: Record<string, number> = {};
    for (const table of COUNTED) {
      const r = await database.db
        .selectFrom(table as 'subjects')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      rows[table] = Number(r.n);
    }
    return rows;
  } finally {
    await database.close();
  }
}
