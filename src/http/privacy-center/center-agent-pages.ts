import { escapeHtml } from '../letters/escape.js';
import { readableTime } from '../letters/html.js';
import { page, problem, TYPE_LABELS } from './center-layout.js';
import { statusWords } from './center-status-words.js';

const e = escapeHtml;

/** What the person's confirmation page shows of an agent's submission (PRODUCT §2.19). */
export interface AgentConfirmView {
  title: string;
  /** Where the two buttons post (the link's path, without its token). */
  action: string;
  /** The link's token, posted back in a hidden field: the answer's URL carries none. */
  token: string;
  agentName: string;
  requestType: string;
  controllerName: string | null;
  submittedAt: string;
  problem?: string;
}

/**
 * The person's confirmation page (PRODUCT §2.19, 11 CCR §7063(a)): who says they act for the
 * person, what they asked for and of whom, and two POST buttons, "Yes, I asked them" and "I did
 * not". No script; showing it decides nothing (mail scanners follow links).
 */
export function agentConfirmPage(v: AgentConfirmView): string {
  const controller = v.controllerName ?? 'this organisation';
  const row = (term: string, value: string) => `<div><dt>${e(term)}</dt><dd>${e(value)}</dd></div>`;
  return page(
    v.title,
    (v.problem === undefined ? '' : problem(v.problem)) +
      `<p><strong>${e(v.agentName)}</strong> says you asked them, as your authorized agent, to make this request to ${e(controller)} for you.</p>` +
      `<dl>` +
      row('Request', TYPE_LABELS[v.requestType] ?? v.requestType) +
      row('Agent', v.agentName) +
      row('Made to', controller) +
      row('Sent on', readableTime(v.submittedAt)) +
      `</dl>` +
      `<p>If you confirm, we file the request and write to you at this e-mail address; the answer comes to you, not to them. ` +
      `They only hear that it was received and when it ends.</p>` +
      `<p>If you did not ask them, nothing is filed and what they sent is deleted.</p>` +
      `<form method="post" action="${e(v.action)}"><input type="hidden" name="token" value="${e(v.token)}">` +
      `<div class="answers"><button type="submit" name="answer" value="yes">Yes, I asked them</button>` +
      `<button type="submit" name="answer" value="no" class="secondary">I did not</button></div></form>`,
    'Did you ask them to make this request?',
  );
}

/** After "Yes, I asked them": the request is filed; the status link comes by mail. */
export function agentConfirmedPage(title: string, status: string): string {
  return page(
    title,
    `<div class="done" role="status"><p>Thank you: your request is filed (${e(statusWords(status, null))}).</p></div>` +
      `<p>We sent you an e-mail with a link where you can follow it, and we will write to you when it is done. ` +
      `We told your agent that it was received, without any of your data.</p>`,
    'Your request is filed',
  );
}

/** After "I did not": nothing filed, the submission deleted, the agent told. */
export function agentDeclinedPage(title: string): string {
  return page(
    title,
    `<div class="done" role="status"><p>Thank you for telling us. Nothing was filed.</p></div>` +
      `<p>We deleted what they sent us, and told them that you did not confirm.</p>`,
    'Nothing was filed',
  );
}
