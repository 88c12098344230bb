/**
 * A connector run's own rules (PRODUCT §2.17; issue 32 items 6 and 7), the pure parts: the counts a
 * resumed erasure adds to what the interrupted run committed, and one request type list (the
 * service's RequestType) handled by an exhaustive switch, an unknown type refused before any
 * connection.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAllowedHosts } from '../../src/lib/allowed-hosts.js';
import { connectorAction, UnsupportedRequestTypeError } from '../../src/modules/connectors/connector-action.fns.js';
import { ConnectorError } from '../../src/modules/connectors/connector.errors.js';
import { runConnectorTask } from '../../src/modules/connectors/connectors.js';
import { parseDataset } from '../../src/modules/connectors/dataset-parse.fns.js';
import { addErasureCounts, countWrite, NO_ERASURE, readErasureCounts } from '../../src/modules/connectors/erasure-counts.fns.js';
import { REQUEST_TYPES, type RequestType } from '../../src/modules/request-model/request-model.js';

const customer = {
  name: 'customer',
  fields: [
    { name: 'id', fides_meta: { primary_key: true } },
    { name: 'email', data_categories: ['user.contact.email'], fides_meta: { identity: 'email' } },
  ],
};

describe('a resumed erasure reports all it did: the counts', () => {
  it('counts each committed write per collection and category, adds two runs, and reads only well-formed stored counts', () => {
    const first = countWrite(
      countWrite(NO_ERASURE, { collection: 'order_line', operation: 'update', categories: ['user.content.private'] }, 3),
      { collection: 'preference', operation: 'delete', categories: ['user.privacy_preferences'] },
      1,
    );
    const second = countWrite(NO_ERASURE, { collection: 'customer', operation: 'update', categories: ['user.contact.email'] }, 1);
    const again = countWrite(second, { collection: 'order_line', operation: 'update', categories: ['user.content.private'] }, 0);
    const all = addErasureCounts(first, again);
    assert.deepEqual(all, {
      collections: {
        order_line: { masked: 3, deleted: 0 },
        preference: { masked: 0, deleted: 1 },
        customer: { masked: 1, deleted: 0 },
      },
      erased: { 'user.content.private': 3, 'user.privacy_preferences': 1, 'user.contact.email': 1 },
    });
    assert.deepEqual(readErasureCounts(JSON.stringify(all)), all);
    assert.equal(readErasureCounts(null), null);
    assert.equal(readErasureCounts('{"collections":{"a":{"masked":-1,"deleted":0}},"erased":{}}'), null);
    assert.equal(readErasureCounts('not json'), null);
  });
});

describe('one request type, one list (request-model), handled by an exhaustive switch', () => {
  it('every RequestType has an action; access and export read, correction corrects, deletion erases', () => {
    assert.deepEqual(
      REQUEST_TYPES.map((t) => [t, connectorAction(t)]),
      [
        ['access', 'read'],
        ['export', 'read'],
        ['correction', 'correct'],
        ['deletion', 'erase'],
      ],
    );
  });

  it('an unknown type throws before any connection or statement', async () => {
    const dataset = parseDataset({ fides_key: 'd', collections: [customer] }).dataset!;
    const input = {
      kind: 'postgres' as const,
      url: 'postgres://u:p@127.0.0.1:1/db',
      system: 'shop-db',
      dataset,
      requestType: 'objection' as RequestType,
      categories: ['user'],
      identities: { email: ['ada@example.com'] },
      hmacKey: 'k',
      limits: { statementTimeoutMs: 1000, maxRows: 10 },
      allowedHosts: parseAllowedHosts('').hosts,
    };
    assert.throws(() => connectorAction(input.requestType), UnsupportedRequestTypeError);
    // With no allowed host, reaching the connection would be a ConnectorError (host_not_allowed): the type is refused first.
    await assert.rejects(
      runConnectorTask(input),
      (e: unknown) => e instanceof UnsupportedRequestTypeError && !(e instanceof ConnectorError),
    );
    await assert.rejects(
      runConnectorTask({ ...input, requestType: 'deletion' }),
      ConnectorError,
      'the same input with a known type does try to connect',
    );
  });
});
