// Creates or drops one PostgreSQL database for a CI run (and, on drop, the test files' leftover
// NAME_<hex> databases beside it): node scripts/ci-database.mjs create|drop ADMIN_URL NAME
import pg from 'pg';

const [action, adminUrl, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action ?? '') || !adminUrl || !/^[a-z0-9_]+$/.test(name ?? '')) {
  console.error('usage: ci-database.mjs create|drop ADMIN_URL NAME');
  process.exit(2);
}
const client = new pg.Client({ connectionString: adminUrl });
await client.connect();
try {
  if (action === 'create') await client.query(`create database ${name}`);
  else {
    // Test files make their databases beside it (`NAME_<hex>`, test/helpers/databases.ts) and drop
    // them; a file killed mid-run leaves one, dropped here with the run's own.
    const { rows } = await client.query(`select datname from pg_database where datname like $1`, [`${name}\\_%`]);
    for (const row of rows) await client.query(`drop database if exists ${row.datname} with (force)`);
    await client.query(`drop database if exists ${name} with (force)`);
  }
  console.log(`${action === 'create' ? 'created' : 'dropped'} database ${name}`);
} finally {
  await client.end();
}
