/**
 * The person's status page of a request (PRODUCT §2.15, §2.17): its type, status and dates, and
 * once done the answer: the letter and the JSON package, a deletion's confirmation, or the
 * person's rights after a rejection.
 */
import { escapeHtml } from '../letters/escape.js';
import { readableTime } from '../letters/html.js';
import { type NotSearchedPart, notSearchedSentence } from '../letters/not-searched-part.js';
import type { KeptItem } from '../../modules/subject-data/erasure-report.fns.js';
import { page, TYPE_LABELS } from './center-layout.js';
import { statusWords, waitingText } from './center-status-words.js';

const e = escapeHtml;

/** What the status page shows of a request (PRODUCT §2.15). */
export interface StatusView {
  title: string;
  requestType: string;
  status: string;
  receivedAt: string;
  dueAt: string;
  extendedDueAt: string | null;
  extensionReason: string | null;
  statusReason: string | null;
  completedAt: string | null;
  /** The letter's link (access/export completed, package kept), or null. */
  letterUrl: string | null;
  /** The machine-readable package's link (GDPR Art. 20; same token and expiry as the letter), or null. */
  packageUrl?: string | null;
  /** A deletion's confirmation, or null. */
  deletionConfirmed: boolean;
  /** A completed deletion's systems that could not be searched with what the person gave (PRODUCT §2.17). */
  notSearched: readonly NotSearchedPart[];
  /** What a completed deletion kept, and why (PRODUCT §2.17); null or absent: not a completed deletion. */
  kept?: readonly KeptItem[] | null;
  controllerName: string | null;
  /** What the person can do about a rejection, under the request's regulations (modules/subject-data/rights.fns.ts). */
  whenDeclined: string;
}

/** The systems a deletion could not search (PRODUCT §2.17), one sentence each; '' when none. */
function notSearchedParagraphs(parts: readonly NotSearchedPart[]): string {
  return parts.map((part) => `<p>${e(notSearchedSentence(part))} Nothing in it was deleted.</p>`).join('');
}

/**
 * A completed deletion's confirmation (PRODUCT §2.15, §2.17): that the controller deleted the
 * person's data, and what it kept and why, item by item, in plain words.
 */
function deletionConfirmation(v: StatusView): string {
  const who = e(v.controllerName ?? 'The organisation');
  const when = e(readableTime(v.completedAt ?? ''));
  const kept = v.kept ?? [];
  const notSearched = notSearchedParagraphs(v.notSearched);
  if (kept.length === 0)
    return `<h2>Deletion confirmed</h2><p>${who} deleted your personal data on ${when}, except what the law requires it to keep.</p>${notSearched}`;
  const items = kept.map((k) => `<li><strong>${e(k.what)}.</strong> ${e(k.why)}</li>`).join('');
  return (
    `<h2>Deletion confirmed</h2><p>${who} deleted your personal data on ${when}, except what is listed below.</p>` +
    notSearched +
    `<h3>What we kept, and why</h3><ul>${items}</ul>`
  );
}

/** The person's status page: type, status, dates, an extension and its reason, and once done the answer. */
export function statusPage(v: StatusView): string {
  const rows: [string, string][] = [
    ['Request', TYPE_LABELS[v.requestType] ?? v.requestType],
    ['Status', statusWords(v.status, v.statusReason)],
    ['Received', readableTime(v.receivedAt)],
    ['Answer due by', readableTime(v.extendedDueAt ?? v.dueAt)],
  ];
  if (v.extendedDueAt)
    rows.push(['Extended', `from ${readableTime(v.dueAt)}${v.extensionReason ? `: ${v.extensionReason}` : ''}`]);
  if (v.completedAt) rows.push(['Finished', readableTime(v.completedAt)]);
  if (v.status === 'rejected' && v.statusReason) rows.push(['Reason', v.statusReason]);
  const dl = `<dl>${rows.map(([k, val]) => `<div><dt>${e(k)}</dt><dd>${e(val)}</dd></div>`).join('')}</dl>`;
  let answer = '';
  if (v.letterUrl) answer = `<h2>Your answer</h2><p><a href="${e(v.letterUrl)}">Read the letter with your data</a></p>`;
  if (v.letterUrl && v.packageUrl)
    answer +=
      `<p><a href="${e(v.packageUrl)}" download>Download the same answer as a machine-readable file (JSON)</a>, ` +
      `to keep or to take to another service (GDPR Art. 20).</p>`;
  if (v.deletionConfirmed) answer = deletionConfirmation(v);
  answer = waitingText(v.status, v.statusReason) ?? answer;
  if (v.status === 'rejected') {
    answer = `<h2>Your rights</h2><p>${e(v.whenDeclined)}</p>`;
  }
  return page(v.title, dl + answer, 'Your request');
}
