/** The pieces of the readable letter (src/http/letters): escaping, content negotiation, value rendering, a letter from parts. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { renderAccessLetter } from '../../src/http/letters/access-letter.js';
import { isEmptyValue, renderValue } from '../../src/http/letters/data-part.js';
import { escapeHtml } from '../../src/http/letters/escape.js';
import { link, readableTime } from '../../src/http/letters/html.js';
import type { LetterInput } from '../../src/http/letters/letter.types.js';
import { acceptQuality, wantsHtml } from '../../src/http/letters/wants-html.js';
import { automatedDecisions } from '../../src/modules/subject-data/package-statements.fns.js';
import { rightsUnder } from '../../src/modules/subject-data/rights.fns.js';
import { assertValidHtml } from '../helpers/letters.js';

/** Undoes {@link escapeHtml} for text without control characters. */
const unescape = (html: string) =>
  html
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

describe('escapeHtml', () => {
  it('escapes the five characters that can end text or an attribute', () => {
    assert.equal(
      escapeHtml(`<script>alert("x" & 'y')</script>`),
      '&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;',
    );
    assert.equal(escapeHtml('&amp;'), '&amp;amp;');
  });

  it('replaces control characters HTML forbids, keeping tab and newlines', () => {
    assert.equal(escapeHtml('a\u0001b\u007f\tc\nd\r'), 'a\uFFFDb\uFFFD\tc\nd\r');
  });

  it('leaves no markup character in any string, and round-trips', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = escapeHtml(s);
        assert.ok(!/[<>"']/.test(out));
        const clean = s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '\uFFFD'); // eslint-disable-line no-control-regex
        assert.equal(unescape(out), clean);
      }),
    );
  });
});

describe('content negotiation for the package', () => {
  it('weighs the most specific range (RFC 9110 §12.5.1)', () => {
    assert.equal(acceptQuality('text/*;q=0.3, text/html;q=0.7, */*;q=0.1', 'text/html'), 0.7);
    assert.equal(acceptQuality('text/*;q=0.3, */*;q=0.1', 'text/html'), 0.3);
    assert.equal(acceptQuality('application/json', 'text/html'), 0);
    assert.equal(acceptQuality('TEXT/HTML', 'text/html'), 1);
  });

  it('gives HTML when asked by format or preferred by Accept, JSON otherwise', () => {
    assert.equal(wantsHtml('html', undefined), true);
    assert.equal(wantsHtml('json', 'text/html'), false);
    assert.equal(wantsHtml(undefined, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), true);
    assert.equal(wantsHtml(undefined, '*/*'), false);
    assert.equal(wantsHtml(undefined, undefined), false);
    assert.equal(wantsHtml(undefined, 'text/html;q=0.5, application/json'), false);
    assert.equal(wantsHtml(undefined, 'text/html;q=0'), false);
  });
});

describe('rendering values', () => {
  it('links only http(s) and mailto URLs', () => {
    assert.equal(link('https://a.example/?q="x"', 'A').html, '<a href="https://a.example/?q=&quot;x&quot;">A</a>');
    assert.equal(link('javascript:alert(1)', 'A').html, 'A (javascript:alert(1))');
  });

  it('reads times as a person does and leaves other text alone', () => {
    assert.equal(readableTime('2026-05-04T09:10:00.000Z'), '4 May 2026, 09:10 UTC');
    assert.equal(readableTime('not a time'), 'not a time');
  });

  it('tells empty values from data', () => {
    assert.equal(isEmptyValue({ email: null, earlier_values: [] }), true);
    assert.equal(isEmptyValue({ email: 'a@b.example', earlier_values: [] }), false);
    assert.equal(isEmptyValue(0), false);
  });

  it('shows narrow record lists as tables and wide ones record by record, escaped', () => {
    const narrow = renderValue({ linked_accounts: [{ provider: 'github', login: '<b>x</b>' }] }).html;
    assert.match(narrow, /<table>.*<th scope="col">Provider<\/th>.*&lt;b&gt;x&lt;\/b&gt;/);
    const wide = renderValue([{ a: 1, b: 2, c: 3, d: 4, e: 5 }]).html;
    assert.ok(!wide.includes('<table') && wide.includes('class="record"'));
  });
});

describe('a letter from its parts', () => {
  const input = (over: Partial<LetterInput> = {}): LetterInput => ({
    request: {
      id: 'pr_1',
      type: 'access',
      workspace_id: 'acme',
      subject: { provider: 'okta', id: '<u1>' },
      received_at: '2026-05-01T10:00:00.000Z',
      completed_at: '2026-05-01T10:01:00.000Z',
      scope: ['user.name'],
    },
    generated_at: '2026-05-01T10:01:00.000Z',
    format: 'privacy-access/1',
    controller: null,
    note: '',
    categories: [{ key: 'user.name', data: { name: '"><img src=x onerror=alert(1)>', earlier_values: [] }, processing: null }],
    regulations: ['gdpr'],
    rights: rightsUnder(['gdpr'], null),
    automated_decision_making: automatedDecisions(['gdpr']),
    ...over,
  });

  it('is a valid document that shows the data as text and names no controller when none is set', async () => {
    const html = renderAccessLetter(input());
    await assertValidHtml(html);
    assert.ok(!html.includes('<img') && html.includes('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(html.includes('&lt;u1&gt; at okta'));
    assert.ok(html.includes('has not yet said here who is responsible for your data'));
    assert.ok(!html.includes('Other systems that answered'));
  });

  it('renders the systems that answered, and nothing for an empty list', async () => {
    assert.ok(!renderAccessLetter(input({ systems: [] })).includes('Other systems that answered'));
    const html = renderAccessLetter(input({ systems: [{ key: 'crm', name: 'CRM', data: { notes: ['<i>hi</i>'] } }] }));
    assert.ok(
      html.includes('Other systems that answered') && html.includes('CRM (crm)') && html.includes('&lt;i&gt;hi&lt;/i&gt;'),
    );
    await assertValidHtml(html);
  });

  it('says "holds no data" only when the system said so (PRODUCT §2.13)', async () => {
    const said = (data: unknown, answer?: NonNullable<LetterInput['systems']>[number]['answer']) =>
      renderAccessLetter(input({ systems: [{ key: 'zendesk', name: 'Zendesk', data, ...(answer ? { answer } : {}) }] }));
    const counted = said({}, { records: { 'user.content': 3 } });
    assert.ok(!counted.includes('holds no data'));
    assert.ok(counted.includes('Records it holds about you: Content written or uploaded: 3.'));
    assert.ok(counted.includes('did not send their content'));
    const separately = said({}, { delivered_separately: true });
    assert.ok(separately.includes('sent to you separately') && !separately.includes('holds no data'));
    assert.ok(said({}, { records: { user: 0 } }).includes('This system holds no data of yours.'));
    assert.ok(said({ 'user.name': [] }, {}).includes('This system holds no data of yours.'));
    const legacy = said({});
    assert.ok(!legacy.includes('holds no data') && legacy.includes('This system sent no data for this answer.'));
    const both = said({ 'user.name': 'Ada' }, { records: { 'user.name': 1 } });
    assert.ok(both.includes('Ada') && both.includes('Records it holds about you: Name: 1.') && !both.includes('did not send'));
    await assertValidHtml(counted);
  });
});
