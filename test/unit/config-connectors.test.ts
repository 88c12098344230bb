/** The connector settings of loadConfig (PRODUCT §2.14): defaults, and every bad variable named at once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('connector configuration', () => {
  it('defaults: nothing allowed, 10 s statements, 1000 rows, 500 systems per workspace', () => {
    const { connectors } = loadConfig({});
    assert.deepEqual(connectors.allowedHosts, []);
    assert.equal(connectors.statementTimeoutMs, 10_000);
    assert.equal(connectors.maxRows, 1000);
    assert.equal(connectors.maxDataSystemsPerWorkspace, 500);
  });

  it('names every bad variable at once, never echoing a host entry', () => {
    const error = (() => {
      try {
        loadConfig({
          CONNECTOR_ALLOWED_HOSTS: 'ok.internal, sec ret!',
          CONNECTOR_STATEMENT_TIMEOUT_MS: '5',
          CONNECTOR_MAX_ROWS: 'many',
          MAX_DATA_SYSTEMS_PER_WORKSPACE: '0',
        });
      } catch (e) {
        return e;
      }
      return null;
    })();
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems, [
      'CONNECTOR_ALLOWED_HOSTS entry 2 is not a host, host:port, address or CIDR',
      'CONNECTOR_STATEMENT_TIMEOUT_MS must be an integer from 100 to 600000',
      'CONNECTOR_MAX_ROWS must be an integer from 1 to 50000',
      'MAX_DATA_SYSTEMS_PER_WORKSPACE must be an integer from 1 to 100000',
    ]);
    assert.ok(!error.message.includes('sec ret'));
  });
});
