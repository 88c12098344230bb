/**
 * The frame and the shared pieces of every privacy-center page (PRODUCT §2.15): the page itself,
 * a problem, the Global Privacy Control notice, the request types in words, and the dead end that
 * leads back to the form. Each page's own body is in center-request-pages.ts,
 * center-opt-out-pages.ts, center-status-page.ts, center-agent-pages.ts and drp-verify-pages.ts.
 */
import { escapeHtml } from '../letters/escape.js';

/** Words for each request type, as a person reads them. */
export const TYPE_LABELS: Record<string, string> = {
  access: 'See the personal data you hold about me',
  export: 'Get a copy of my data to take elsewhere',
  correction: 'Correct my personal data',
  deletion: 'Delete my personal data',
};

const e = escapeHtml;

/** A whole page: language, title, the stylesheet, one main landmark. */
export function page(title: string, body: string, heading = title): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${e(title)}</title><link rel="stylesheet" href="/privacy-center/assets/center.css"></head>` +
    `<body><main><h1>${e(heading)}</h1>${body}</main></body></html>`
  );
}

/** A problem the person can fix, announced to screen readers. */
export function problem(text: string): string {
  return `<div class="problem" role="alert"><p>${e(text)}</p></div>`;
}

/** The visible notice of a page fetched with `Sec-GPC: 1` (11 CCR §7025(c)(6)). */
export const GPC_NOTICE =
  `<div class="gpc" role="status"><p><strong>Opt-Out Request Honored</strong></p>` +
  `<p>Your browser sent a Global Privacy Control signal. We honour it as your request to opt out of the sale and sharing of your personal information; ` +
  `when you send us your e-mail address on this site, we record that opt-out for it too.</p></div>`;

/** `html` with {@link GPC_NOTICE} after its first heading (or at the start of its body). */
export function withGpcNotice(html: string): string {
  const heading = html.indexOf('</h1>');
  if (heading !== -1) return html.slice(0, heading + 5) + GPC_NOTICE + html.slice(heading + 5);
  const body = html.indexOf('<body>');
  return body === -1 ? GPC_NOTICE + html : html.slice(0, body + 6) + GPC_NOTICE + html.slice(body + 6);
}

/** The path of workspace `workspaceId`'s form: where every dead end of the center leads back to. */
export function formPath(workspaceId: string): string {
  return `/privacy-center/${encodeURIComponent(workspaceId)}/`;
}

/**
 * The link back to the form of workspace `workspaceId`, as its own paragraph: `text` is what the
 * link says, `before` plain text ahead of it (both escaped here).
 */
export function backToForm(workspaceId: string, text: string, before = ''): string {
  return `<p class="back">${e(before)}<a href="${e(formPath(workspaceId))}">${e(text)}</a></p>`;
}

/**
 * A page the person cannot go on from (a status link that is not valid, an answer that expired):
 * `text` as a paragraph and, when the workspace's center is on (`workspaceId` not null), a link
 * back to its form; a center that is off has no form to go back to.
 */
export function deadEndPage(input: {
  title: string;
  heading: string;
  text: string;
  workspaceId: string | null;
  linkText?: string;
}): string {
  const back = input.workspaceId === null ? '' : backToForm(input.workspaceId, input.linkText ?? 'Go to the request form');
  return page(input.title, `<p>${e(input.text)}</p>${back}`, input.heading);
}

/** The 404 page of a workspace whose privacy center is off (or takes no agent requests). */
export function noCenterPage(): string {
  return page('Not found', '<p>There is no privacy center at this address.</p>', 'Not found');
}
