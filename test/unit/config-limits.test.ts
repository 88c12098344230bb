/** Issue 23's settings of loadConfig: endpoint limit, delivery concurrency, PostgreSQL statement timeouts (API and sweeps). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('limit configuration (issue 23)', () => {
  it('defaults: 100 endpoints per workspace, 64 attempts in flight, 2 per endpoint (16 in a burst), 15 s statements', () => {
    const config = loadConfig({});
    assert.deepEqual(config.outboundLimits, {
      endpointsPerWorkspace: 100,
      maxInFlight: 256,
      endpointConcurrency: 2,
      endpointBurst: 64,
    });
    assert.equal(config.pgStatementTimeoutMs, 15_000);
    assert.equal(loadConfig({ PG_STATEMENT_TIMEOUT_MS: '0' }).pgStatementTimeoutMs, 0, '0: no bound');
  });

  it("sweeps' statement bound: 5 minutes by default, its own variable, 0 for none, at most a day", () => {
    assert.equal(loadConfig({}).worker.sweepStatementTimeoutMs, 300_000);
    const both = loadConfig({ PG_STATEMENT_TIMEOUT_MS: '2000', PG_SWEEP_STATEMENT_TIMEOUT_MS: '600000' });
    assert.deepEqual([both.pgStatementTimeoutMs, both.worker.sweepStatementTimeoutMs], [2000, 600_000]);
    assert.equal(loadConfig({ PG_SWEEP_STATEMENT_TIMEOUT_MS: '0' }).worker.sweepStatementTimeoutMs, 0, '0: no bound');
    assert.equal(loadConfig({ PG_SWEEP_STATEMENT_TIMEOUT_MS: '86400000' }).worker.sweepStatementTimeoutMs, 86_400_000);
    for (const bad of ['-1', '86400001', '1e3', 'long', ' 5'])
      assert.throws(
        () => loadConfig({ PG_SWEEP_STATEMENT_TIMEOUT_MS: bad }),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.problems.join('|') === 'PG_SWEEP_STATEMENT_TIMEOUT_MS must be an integer from 0 to 86400000',
        bad,
      );
  });

  it('names every bad variable at once', () => {
    const error = (() => {
      try {
        loadConfig({
          MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE: '0',
          OUTBOUND_MAX_IN_FLIGHT: 'many',
          OUTBOUND_ENDPOINT_CONCURRENCY: '33',
          OUTBOUND_ENDPOINT_BURST: '-1',
          PG_STATEMENT_TIMEOUT_MS: '1.5',
          PG_SWEEP_STATEMENT_TIMEOUT_MS: '-5',
        });
      } catch (e) {
        return e;
      }
      return null;
    })();
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems, [
      'PG_SWEEP_STATEMENT_TIMEOUT_MS must be an integer from 0 to 86400000',
      'MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE must be an integer from 1 to 10000',
      'OUTBOUND_MAX_IN_FLIGHT must be an integer from 1 to 1000',
      'OUTBOUND_ENDPOINT_CONCURRENCY must be an integer from 1 to 32',
      'OUTBOUND_ENDPOINT_BURST must be an integer from 1 to 256',
      'PG_STATEMENT_TIMEOUT_MS must be an integer from 0 to 3600000',
    ]);
  });
});
