/** The console's "Mark done" data (console/src/lib/task-data.ts, PRODUCT §2.13): CSV rows, JSON, the 1 MiB limit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvRows, dataFromFile, MAX_TASK_DATA_BYTES, parseCounts, parseData, tooLarge } from '../../console/src/lib/task-data.js';

describe("console: a manual task's data", () => {
  it('reads CSV rows by header, with quoted commas and quotes, CRLF or LF, a BOM and empty lines', () => {
    assert.deepEqual(csvRows('\uFEFFid,subject\r\n1,"Refund, ""now"""\n\n2,Login\n'), [
      { id: '1', subject: 'Refund, "now"' },
      { id: '2', subject: 'Login' },
    ]);
    assert.deepEqual(csvRows(''), []);
    assert.throws(() => csvRows('a,b\n1,2,3'), /CSV line 2 has 3 fields; the header has 2/);
  });

  it('refuses data over 1 MiB with its size, accepts exactly 1 MiB', async () => {
    assert.equal(tooLarge(MAX_TASK_DATA_BYTES), null);
    assert.match(tooLarge(MAX_TASK_DATA_BYTES + 1) ?? '', /^The data is 1\.0 MiB; at most 1 MiB \(1,048,576 bytes\)/);
    const huge = new File([new Uint8Array(MAX_TASK_DATA_BYTES + 1)], 'huge.csv', { type: 'text/csv' });
    await assert.rejects(dataFromFile(huge, 'user'), /at most 1 MiB/);
    assert.throws(() => parseData(`{"user":"${'x'.repeat(MAX_TASK_DATA_BYTES)}"}`), /at most 1 MiB/);
  });

  it('a CSV file goes under the category, a JSON file as it is; the box must hold a JSON object', async () => {
    const csv = new File(['id,subject\n7,Hi\n'], 'tickets.csv', { type: 'text/csv' });
    assert.deepEqual(JSON.parse(await dataFromFile(csv, 'user.content')), { 'user.content': [{ id: '7', subject: 'Hi' }] });
    const json = new File(['{"user.name":"Ada"}'], 'answer.json', { type: 'application/json' });
    assert.equal(await dataFromFile(json, 'user'), '{"user.name":"Ada"}');
    await assert.rejects(dataFromFile(new File(['{nope'], 'a.json'), 'user'), SyntaxError);
    assert.equal(parseData('  '), undefined);
    assert.deepEqual(parseData('{"user": [1]}'), { user: [1] });
    assert.throws(() => parseData('[1]'), /must be a JSON object/);
    assert.throws(() => parseData('{'), /not valid JSON/);
  });

  it('counts: empty boxes left out, none typed is no records', () => {
    assert.deepEqual(parseCounts({ user: '3', 'user.name': ' ', 'user.contact': '0' }), { user: 3, 'user.contact': 0 });
    assert.equal(parseCounts({ user: '' }), undefined);
  });
});
