/** The privacy center's mails as the outbox holds them (PRODUCT §2.15, §2.19). */

/** The mails about a request, to its notify address (PRODUCT §2.15). */
export type RequestMailKind = 'received' | 'extended' | 'completed' | 'rejected';

/**
 * The mails the service writes to a person (PRODUCT §2.15), and those of the center's agent path
 * (§2.19): `agent_confirm` asks the person whether they asked the agent, `agent_notice` tells the
 * agent what became of what it filed (without a link or any data).
 */
export type MailKind = 'code' | RequestMailKind | 'agent_confirm' | 'agent_notice';

/** What an `agent_notice` tells the agent: a request mail's kind, or that the person did not confirm (§2.19). */
export type AgentNoticeEvent = RequestMailKind | 'not_confirmed';

/**
 * What a mail says, besides the controller's name (read when it is sent). Never a package's data:
 * the request's type, dates, a reason an officer wrote, a code or a status link.
 */
export interface MailPayload {
  request_type: string;
  /**
   * A code mail's code in clear: only in memory, once opened at send time (outbox rows written
   * before issue 33 may still hold one; they are dropped with their code's expiry).
   */
  code?: string;
  /** A code mail's code sealed under the service's secrets key (lib/secret-box.ts): never stored in clear. */
  code_sealed?: string;
  /** When a code mail's code expires (ISO 8601): the mail is dropped, not sent, from then on. */
  code_expires_at?: string;
  /** The submission a code mail is for (`form_…`, or `pcs_…` before 2026-12). */
  submission_id?: string;
  received_at?: string;
  due_at?: string;
  reason?: string | null;
  /** The request's `regulation` label (`gdpr`, `ccpa`, `ccpa+gdpr`): which rights a mail names. */
  regulation?: string;
  /**
   * Set at commit for requests with a status page: the mail carries a status link, its capability
   * token minted when the mail is sent ({@link insertStatusToken}), so no token waits in clear.
   */
  status_link?: boolean;
  /** The plain capability token, in memory at send time (outbox rows written before issue 33 may hold one). */
  status_token?: string;
  /** A code mail to an authorized agent (PRODUCT §2.19): its words speak to the agent. */
  for_agent?: boolean;
  /** `agent_confirm`: the agent's name as it gave it. */
  agent_name?: string;
  /** `agent_confirm`: the confirmation link's token sealed under the secrets key; opened only as the mail is sent. */
  confirm_sealed?: string;
  /** `agent_confirm`: the plain token, in memory at send time only. */
  confirm_token?: string;
  /** `agent_confirm`: the submission the person is asked about. */
  agent_submission_id?: string;
  /** `agent_notice`: what the agent is told. */
  event?: AgentNoticeEvent;
}

/** A mail about a privacy request: sent to the request's notify address, if it has one. */
export interface RequestMail {
  requestId: string;
  workspaceId: string;
  kind: RequestMailKind;
  payload: MailPayload;
  at: string;
}

/** A mail to an address given directly (the verification code). */
export interface DirectMail {
  workspaceId: string;
  kind: MailKind;
  recipient: string;
  payload: MailPayload;
  at: string;
}
