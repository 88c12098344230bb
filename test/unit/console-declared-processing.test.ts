/** A data system's declared processing in the console (console/src/lib/declared-processing.ts, PRODUCT §2.17): text ⇄ lists, 422s at their lines. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  declaredBody,
  declaredErrors,
  declaredProblems,
  declaredValue,
  statementsOf,
  textOf,
  textsOf,
} from '../../console/src/lib/declared-processing.js';

describe("console: a data system's declared processing", () => {
  it('reads one statement a line, trimmed, blank lines skipped, CRLF or LF, keeping each line number', () => {
    assert.deepEqual(statementsOf('  Billing \r\n\n   \nSupport tickets\n'), [
      { text: 'Billing', line: 1 },
      { text: 'Support tickets', line: 4 },
    ]);
    assert.deepEqual(statementsOf(''), []);
    assert.equal(textOf(['Billing', 'Support']), 'Billing\nSupport');
    assert.equal(textOf(null), '');
  });

  it('sends a list, leaves an empty field out on registration, withdraws only what was declared on a change', () => {
    assert.deepEqual(declaredValue('Billing\n\nSupport', null, false), ['Billing', 'Support']);
    assert.equal(declaredValue(' \n', null, false), undefined, 'registration: not declared');
    assert.equal(declaredValue('', ['Billing'], true), null, 'change: withdrawn');
    assert.equal(declaredValue('', null, true), undefined, 'change: never declared, nothing sent');
    assert.deepEqual(declaredValue('Support', ['Billing'], true), ['Support']);
  });

  it('builds the body of the four fields from the textareas, and the textareas from a system', () => {
    const system = { purposes: ['Billing', 'Support'], recipients: ['Payroll'], retention: null, source: null };
    const texts = textsOf(system);
    assert.deepEqual(texts, { purposes: 'Billing\nSupport', recipients: 'Payroll', retention: '', source: '' });
    assert.deepEqual(textsOf(null), { purposes: '', recipients: '', retention: '', source: '' });
    assert.deepEqual(declaredBody({ ...texts, recipients: ' ', source: 'Sign-up form' }, system), {
      purposes: ['Billing', 'Support'],
      recipients: null,
      source: ['Sign-up form'],
    });
    assert.deepEqual(declaredBody({ purposes: 'Billing', recipients: '', retention: '', source: '' }, null), {
      purposes: ['Billing'],
    });
  });

  it('refuses more than 20 statements before sending, not 20', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `Purpose ${i}`).join('\n');
    assert.deepEqual(declaredProblems(lines(20)), []);
    assert.deepEqual(declaredProblems(`${lines(21)}\n\n`), ['At most 20 statements, one a line (this has 21)']);
  });

  it("points the API's 422 at the line of the statement it names, and at the field otherwise", () => {
    const text = 'Billing\n\n' + 'x'.repeat(501);
    const items = [
      { type: 'string_too_long', loc: ['body', 'purposes', 1], msg: 'String should have at most 500 characters' },
      { type: 'too_long', loc: ['body', 'purposes'], msg: 'List should have at most 20 items' },
      { type: 'string_too_long', loc: ['body', 'source', 0], msg: 'not this field' },
      { type: 'missing', loc: ['query', 'purposes'], msg: 'not the body' },
    ];
    assert.deepEqual(declaredErrors(items, 'purposes', text), [
      'Line 3: String should have at most 500 characters',
      'List should have at most 20 items',
    ]);
    assert.deepEqual(declaredErrors(items, 'recipients', text), []);
    assert.deepEqual(declaredErrors([{ type: 'x', loc: ['body', 'source', 7], msg: 'gone' }], 'source', 'a'), ['gone']);
  });
});
