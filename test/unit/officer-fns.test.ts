/** CSV cells (RFC 4180, formula guard) and the report's statistics (PRODUCT §2.16). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvCell, csvRow } from '../../src/lib/csv.js';
import { mean, median, p90 } from '../../src/modules/privacy-requests/request-report.fns.js';
import { expandStatuses, resolveAssignee } from '../../src/modules/privacy-requests/privacy-request.service.js';

describe('csv', () => {
  it('quotes commas, quotes and line breaks, and doubles quotes', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('cr\r'), '"cr\r"');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell(undefined), '');
  });
  it('guards cells a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t']) assert.equal(csvCell(`${start}SUM(A1)`), `'${start}SUM(A1)`);
    // OWASP's sixth: a leading CR, guarded and (it holds a CR) quoted.
    assert.equal(csvCell('\r=SUM(A1)'), `"'\r=SUM(A1)"`);
    assert.equal(csvCell('=1,2'), `"'=1,2"`);
    assert.equal(csvCell(-3), '-3', 'numbers are numbers');
    assert.equal(csvCell('a=b'), 'a=b');
  });
  it('ends each record with CRLF', () => assert.equal(csvRow(['a', null, 3]), 'a,,3\r\n'));
});

describe('report statistics', () => {
  it('median: middle value, or the mean of the two middle ones', () => {
    assert.equal(median([]), null);
    assert.equal(median([5]), 5);
    assert.equal(median([9, 1, 5]), 5);
    assert.equal(median([1, 2, 3, 10]), 2.5);
  });
  it('p90 by nearest rank, mean, one decimal', () => {
    assert.equal(p90([]), null);
    assert.equal(p90([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 9);
    assert.equal(p90([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), 10);
    assert.equal(p90([4]), 4);
    assert.equal(mean([1, 2, 2]), 1.7);
    assert.equal(mean([]), null);
  });
});

describe('queue filters', () => {
  it('`open` stands for every non-final status; the set is sorted, each once', () => {
    assert.deepEqual(expandStatuses(['open', 'queued', 'completed']), [
      'action_required',
      'completed',
      'pending_approval',
      'processing',
      'queued',
    ]);
    assert.equal(expandStatuses([]), undefined);
    assert.equal(expandStatuses(undefined), undefined);
  });
  it('assignee: me is the caller, none is nobody', () => {
    assert.equal(resolveAssignee('me', 'Dana'), 'Dana');
    assert.equal(resolveAssignee('none', 'Dana'), null);
    assert.equal(resolveAssignee('Sam', 'Dana'), 'Sam');
    assert.equal(resolveAssignee(undefined, 'Dana'), undefined);
  });
});
