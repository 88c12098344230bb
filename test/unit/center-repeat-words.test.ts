/**
 * What the person reads while their request waits as a repeat (PRODUCT §2.20, §2.13 "answers
 * that are true"): waiting for the privacy team, nothing decided, not refused, and nothing about
 * the other request; other waiting requests keep their own words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type StatusView, statusPage } from '../../src/http/privacy-center/center-status-page.js';
import { verifiedPage } from '../../src/http/privacy-center/center-request-pages.js';

const view = (status: string, statusReason: string | null): StatusView => ({
  title: 'Acme privacy center',
  requestType: 'access',
  status,
  receivedAt: '2026-05-04T09:00:00.000Z',
  dueAt: '2026-06-04T09:00:00.000Z',
  extendedDueAt: null,
  extensionReason: null,
  statusReason,
  completedAt: null,
  letterUrl: null,
  deletionConfirmed: false,
  notSearched: [],
  controllerName: 'Acme GmbH',
  whenDeclined: 'You may complain to the supervisory authority.',
});

/** The page's text without tags, spaces collapsed. */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('a repeat in the person’s words', () => {
  it('the status page says it waits for the team, nothing is decided, and claims no refusal', () => {
    const page = text(statusPage(view('action_required', 'repeat_request')));
    assert.match(page, /Status Received, waiting for our team/);
    assert.match(page, /Waiting for our team/);
    assert.match(page, /Nothing has been decided yet/);
    assert.doesNotMatch(page, /Being worked on/);
    assert.doesNotMatch(page, /declined your|Declined|refused|rejected/i);
    assert.doesNotMatch(page, /repeat_request|pr_/, 'no internal words or ids');
  });

  it('the page after verification says the same', () => {
    const page = text(verifiedPage('Acme privacy center', 'action_required', 'repeat_request'));
    assert.match(page, /your request is filed \(Received, waiting for our team\)/);
  });

  it('other waiting requests keep their words', () => {
    const unmatched = text(statusPage(view('action_required', 'identity_unmatched')));
    assert.match(unmatched, /Being worked on \(a person is looking at it\)/);
    assert.match(unmatched, /We are checking/);
    assert.doesNotMatch(unmatched, /Waiting for our team/);
    const correction = text(statusPage(view('action_required', 'waiting for corrected values')));
    assert.match(correction, /Being worked on \(a person is looking at it\)/);
    assert.doesNotMatch(correction, /Waiting for our team/);
    assert.match(text(verifiedPage('Acme privacy center', 'queued')), /\(Received, in the queue\)/);
  });
});
