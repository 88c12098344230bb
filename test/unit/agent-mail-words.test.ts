/**
 * The words of the privacy center's agent-path mails (PRODUCT §2.19): every notice to the agent
 * names the controller and what happened, and carries no link, date, reason or address; the
 * person's confirmation mail names the agent, the request and the controller and carries the link.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderAgentMail } from '../../src/modules/privacy-center/agent-mail-render.fns.js';
import type { AgentNoticeEvent } from '../../src/modules/privacy-center/mail.types.js';

const ACME = { name: 'Acme GmbH', contact_email: 'privacy@acme.example' };

describe('agent-path mail words', () => {
  it('each notice to the agent says what happened, names the controller, and holds no link, date or reason', () => {
    const expected: Record<AgentNoticeEvent, RegExp> = {
      received: /received the request you filed/,
      extended: /needs more time for the request you filed/,
      completed: /The request you filed with Acme GmbH is done/,
      rejected: /declined the request you filed/,
      not_confirmed: /The person did not confirm the request you filed with Acme GmbH/,
    };
    for (const [event, subject] of Object.entries(expected) as [AgentNoticeEvent, RegExp][]) {
      const mail = renderAgentMail(
        'agent_notice',
        { request_type: 'access', event, reason: 'secret reason', due_at: '2027-01-02T00:00:00Z' },
        ACME,
        null,
      );
      assert.match(mail.subject, subject, event);
      assert.match(mail.text, /access to the person's personal data/, event);
      assert.match(mail.text, /Acme GmbH/, event);
      assert.doesNotMatch(mail.text, /https?:|secret reason|2027|January/, event);
    }
  });

  it("the person's mail names the agent, the request, the controller and the link; the agent's code mail speaks to the agent", () => {
    const url = 'http://center.example/privacy-center/acme/agent-requests/form_X/confirm?token=t';
    const ask = renderAgentMail('agent_confirm', { request_type: 'deletion', agent_name: 'Helper Ltd' }, ACME, url);
    assert.equal(ask.subject, 'Did you ask Helper Ltd to make a privacy request to Acme GmbH?');
    assert.match(
      ask.text,
      /Helper Ltd says you asked them, as your authorized agent, to request deletion of your personal data from Acme GmbH/,
    );
    assert.ok(ask.text.includes(url));
    assert.match(ask.text, /within 14 days/);
    const code = renderAgentMail('code', { request_type: 'access', code: '042137', for_agent: true }, ACME, null);
    assert.equal(code.subject, 'Your code: 042137');
    assert.match(code.text, /as an authorized agent, to file a request for access to the person's personal data/);
  });
});
