/**
 * A separate process appending to the audit chain: `node --import tsx test/helpers/audit-appender.ts
 * COUNT LABEL` with DATABASE_URL set. Opens the database as the server does (createDatabase +
 * openServices), prints `ready`, waits for a line on stdin, then creates COUNT API tokens, five at once
 * (each audited as `token.created` by actor `appender:LABEL`) and prints `done`.
 */
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import { openServices } from '../../src/services.js';

const count = Number(process.argv[2]);
const label = process.argv[3] ?? 'x';
const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL ?? '', LOG_LEVEL: 'silent' });
const database = createDatabase(config.databaseUrl);
try {
  const services = await openServices({ config, database });
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.pause();
  // Five at a time: the appends of the four processes still interleave, and no create waits for
  // a pooled client (10 per process) longer than the pool's 3 s while other files load the machine.
  for (let start = 0; start < count; start += 5)
    await Promise.all(
      Array.from({ length: Math.min(5, count - start) }, (_, i) =>
        services.tokens.create({
          name: `${label}-${start + i}`,
          scopes: ['privacy:read'],
          workspaces: ['acme'],
          actor: `appender:${label}`,
        }),
      ),
    );
  process.stdout.write('done\n');
} finally {
  await database.close();
}
