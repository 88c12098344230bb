/**
 * SQL timing for a benchmark's service: loaded with `NODE_OPTIONS="--import ./bench/sql-timing.mjs"`
 * before `npm run bench`, it wraps better-sqlite3's statements and pg's `Client#query` in the
 * service process (dist/server.js only) and, when the service exits, writes
 * `.bench/sql-timing.txt`: per SQL text, total ms, calls and mean µs, heaviest first. How the
 * SQLite group-commit fix was found (9 725 commits for 9 723 creates). The wrapping costs a
 * little per statement, so its run's req/s are not comparable.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const stats = new Map();

function record(text, startedAt) {
  const micros = Number(process.hrtime.bigint() - startedAt) / 1e3;
  const key = String(text).slice(0, 140);
  const entry = stats.get(key) ?? { calls: 0, micros: 0 };
  entry.calls += 1;
  entry.micros += micros;
  stats.set(key, entry);
}

function wrapSqlite(require) {
  const SQLite = require('better-sqlite3');
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statement[method];
    statement[method] = function timed(...args) {
      const startedAt = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        record(this.source, startedAt);
      }
    };
  }
}

function wrapPg(require) {
  const client = require('pg').Client.prototype;
  const original = client.query;
  client.query = function timed(...args) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '?');
    const startedAt = process.hrtime.bigint();
    const result = original.apply(this, args);
    if (result && typeof result.then === 'function')
      result.then(
        () => record(text, startedAt),
        () => record(text, startedAt),
      );
    return result;
  };
}

if (process.argv[1]?.endsWith('dist/server.js')) {
  const require = createRequire(`${process.cwd()}/package.json`);
  wrapSqlite(require);
  wrapPg(require);
  process.on('exit', () => {
    const rows = [...stats]
      .sort((a, b) => b[1].micros - a[1].micros)
      .slice(0, 40)
      .map(
        ([sql, s]) =>
          `${(s.micros / 1000).toFixed(0).padStart(7)} ms ${String(s.calls).padStart(8)} × ${(s.micros / s.calls).toFixed(1).padStart(7)} µs  ${sql}`,
      );
    writeFileSync(`${process.cwd()}/.bench/sql-timing.txt`, `${rows.join('\n')}\n`);
  });
}
