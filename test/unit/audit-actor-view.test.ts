/**
 * Who acted, as the audit trail API shows it (PRODUCT §2.7, §2.15, §2.19): the stored actor's
 * prefix gives its type, the rest its id, the name recorded with the entry its name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actorView } from '../../src/modules/audit/audit-event.fns.js';

describe('audit actor view', () => {
  it('types each stored actor by its prefix, a DRP agent as an agent', () => {
    assert.deepEqual(actorView('token:tok_01', 'Ann'), { type: 'token', id: 'tok_01', name: 'Ann' });
    assert.deepEqual(actorView('oidc:sub-9', null), { type: 'oidc', id: 'sub-9', name: 'sub-9' });
    assert.deepEqual(actorView('integration:int_1', 'idp'), { type: 'webhook', id: 'int_1', name: 'idp' });
    assert.deepEqual(actorView('subject:ps_x', 'the person'), { type: 'subject', id: 'ps_x', name: 'the person' });
    assert.deepEqual(actorView('agent:agent-007', 'Permission Slip'), {
      type: 'agent',
      id: 'agent-007',
      name: 'Permission Slip',
    });
    assert.deepEqual(actorView('worker', null), { type: 'system', id: 'worker', name: 'worker' });
  });
});
