import type { AgentNoticeEvent, MailPayload } from './mail.types.js';
import { type MailController, type RenderedMail, TYPE_WORDS } from './mail-render.fns.js';

/** What the agent is told of each event: never a link, a date of the person's or a reason (PRODUCT §2.19). */
const NOTICE: Record<AgentNoticeEvent, (who: string, what: string) => RenderedMail> = {
  received: (who, what) => ({
    subject: `${who} received the request you filed`,
    text: `The person confirmed that you may act for them, and ${who} received the request you filed for ${what}. We write to the person about it; they have the link to follow it.`,
  }),
  extended: (who, what) => ({
    subject: `${who} needs more time for the request you filed`,
    text: `${who} needs more time to answer the request you filed for ${what}. The person has been told why and by when.`,
  }),
  completed: (who, what) => ({
    subject: `The request you filed with ${who} is done`,
    text: `${who} has finished the request you filed for ${what}. The answer went to the person; this mail does not carry it.`,
  }),
  rejected: (who, what) => ({
    subject: `${who} declined the request you filed`,
    text: `${who} declined the request you filed for ${what}. The person has been told why and what they can do.`,
  }),
  not_confirmed: (who, what) => ({
    subject: `The person did not confirm the request you filed with ${who}`,
    text: `The person did not confirm that you may file a request for ${what} with ${who}, so nothing was filed and what you sent was deleted.`,
  }),
};

/**
 * The words of the privacy center's agent-path mails (PRODUCT §2.19), plain text, naming the
 * controller: the agent's `code`; `agent_confirm`, which asks the person whether they asked the
 * agent (the agent's name, the request type, the controller, the link to the confirmation page,
 * `confirmUrl`); `agent_notice`, which tells the agent what became of it without a link or any
 * data of the person.
 */
export function renderAgentMail(
  kind: 'code' | 'agent_confirm' | 'agent_notice',
  payload: MailPayload,
  controller: MailController | null,
  confirmUrl: string | null,
): RenderedMail {
  const who = controller?.name ?? 'the organisation you wrote to';
  const what = TYPE_WORDS[payload.request_type] ?? 'a privacy request';
  const contact = controller ? `\n\nQuestions? Write to ${controller.name} at ${controller.contact_email}.` : '';
  const sign = `\n\n${controller?.name ?? ''}`.trimEnd();
  const theirs = what.replaceAll('your ', "the person's ");
  if (kind === 'code') {
    return {
      subject: `Your code: ${payload.code ?? ''}`,
      text:
        `Someone, hopefully you, asked ${who}, as an authorized agent, to file a request for ${theirs} using this e-mail address.\n\n` +
        `Your code is ${payload.code ?? ''}. It is valid for 10 minutes. Once you enter it, we ask the person to confirm that you act for them.\n\n` +
        `If this was not you, ignore this mail: nothing happens without the code.` +
        contact +
        sign,
    };
  }
  if (kind === 'agent_confirm') {
    return {
      subject: `Did you ask ${payload.agent_name ?? 'someone'} to make a privacy request to ${who}?`,
      text:
        `${payload.agent_name ?? 'Someone'} says you asked them, as your authorized agent, to request ${what} from ${who}.\n\n` +
        `Please tell us whether you did (keep this link to yourself):\n${confirmUrl ?? ''}\n\n` +
        `Nothing is filed until you confirm. If you do not answer within 14 days, nothing is filed and what they sent is deleted.` +
        contact +
        sign,
    };
  }
  const notice = NOTICE[payload.event ?? 'received'](who, theirs);
  return { subject: notice.subject, text: notice.text + contact + sign };
}
