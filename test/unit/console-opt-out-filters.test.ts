/** The console's opt-out filters and count links (console/src/lib/opt-out-filters.ts, PRODUCT §2.18, §2.21). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  countHref,
  isOverdueOptOut,
  optOutFilterParams,
  optOutFiltersFrom,
  optOutListQuery,
} from '../../console/src/lib/opt-out-filters.js';

describe("console: the opt-outs' filters", () => {
  it('reads the filters from the address and writes back only what is set', () => {
    const filters = optOutFiltersFrom(new URLSearchParams('workspaces=acme,%20beta&overdue=true'));
    assert.deepEqual(filters, { workspaces: 'acme, beta', openOnly: false, overdueOnly: true });
    assert.equal(optOutFilterParams(filters).toString(), 'workspaces=acme%2C+beta&overdue=true');
    assert.deepEqual(optOutFiltersFrom(new URLSearchParams('open=yes')), { workspaces: '', openOnly: false, overdueOnly: false });
    assert.equal(optOutFilterParams({ workspaces: '  ', openOnly: true, overdueOnly: false }).toString(), 'open=true');
  });

  it('asks the list API for what each filter means: open → status=open, overdue → overdue=true', () => {
    assert.deepEqual(optOutListQuery({ workspaces: 'acme, ,beta', openOnly: true, overdueOnly: false }, null), {
      workspace_id: ['acme', 'beta'],
      status: 'open',
      overdue: undefined,
      cursor: null,
      limit: 25,
    });
    assert.deepEqual(optOutListQuery({ workspaces: '', openOnly: false, overdueOnly: true }, 'c1'), {
      workspace_id: undefined,
      status: undefined,
      overdue: true,
      cursor: 'c1',
      limit: 25,
    });
  });

  it('an opt-out is overdue when open and past its due date, as the count means it', () => {
    const now = Date.parse('2026-12-07T12:00:00.000Z');
    const due = (status: string, due_at: string) => isOverdueOptOut({ status, due_at }, now);
    assert.equal(due('queued', '2026-12-07T11:59:59.999Z'), true);
    assert.equal(due('processing', '2026-12-01T00:00:00.000Z'), true);
    assert.equal(due('queued', '2026-12-07T12:00:00.000Z'), false, 'due now is not past');
    assert.equal(due('completed', '2026-12-01T00:00:00.000Z'), false);
    assert.equal(due('failed', '2026-12-01T00:00:00.000Z'), false);
  });

  it("links a count tile to its view's filter over the same workspaces, and the link reads back as that filter", () => {
    assert.equal(countHref('queue', 'status=open', ''), '#/queue?status=open');
    const href = countHref('opt-outs', 'overdue=true', ' acme,beta ');
    assert.equal(href, '#/opt-outs?workspaces=acme%2Cbeta&overdue=true');
    assert.deepEqual(optOutFiltersFrom(new URLSearchParams(href.split('?')[1])), {
      workspaces: 'acme,beta',
      openOnly: false,
      overdueOnly: true,
    });
  });
});
