/**
 * A separate process that keeps appending to the audit chain, as a running service does:
 * `node --import tsx test/helpers/audit-writer.ts MAX` with DATABASE_URL set. Opens the database
 * as the server does, prints `ready`, waits for a line on stdin, then commits one transaction
 * after another (1–3 entries each, actor `writer`) until stdin closes or MAX entries are
 * appended, and prints `appended N`.
 */
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { appendAuditEvents } from '../../src/modules/audit/audit.repository.js';
import { openServices } from '../../src/services.js';

const max = Number(process.argv[2] ?? 100_000);
const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL ?? '', LOG_LEVEL: 'silent' });
const database = createDatabase(config.databaseUrl);
let appended = 0;
try {
  await openServices({ config, database });
  let open = true;
  process.stdin.on('end', () => (open = false));
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  while (open && appended < max) {
    const n = 1 + (appended % 3);
    const entries = Array.from({ length: n }, (_, i) => ({
      actor: 'writer',
      action: 'test.appended',
      targetType: 'test',
      targetId: `w${appended + i}`,
      workspaceId: null,
      details: { i: appended + i },
      occurredAt: new Date().toISOString(),
    }));
    await database.db.transaction().execute((tx) => appendAuditEvents(tx, entries));
    appended += n;
    // Let stdin's 'end' through between commits.
    await new Promise((resolve) => setImmediate(resolve));
  }
  process.stdout.write(`appended ${appended}\n`);
} finally {
  await database.close();
}
