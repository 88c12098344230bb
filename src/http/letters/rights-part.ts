import type { ControllerProfileFields } from '../../modules/controllers/controller.types.js';
import type { Regulation } from '../../modules/policies/policy.types.js';
import type { AutomatedDecisionStatement, RightStatement } from '../../modules/subject-data/package.types.js';
import { CPPA_COMPLAINT_URL, rightTitle } from '../../modules/subject-data/rights.fns.js';
import { element, type Html, link, list, raw } from './html.js';

/** The heading of each regulation's rights when the letter names both. */
const REGULATION_HEADINGS: Readonly<Record<Regulation, string>> = {
  gdpr: 'Under the EU General Data Protection Regulation (GDPR)',
  ccpa: 'Under the California Consumer Privacy Act (CCPA)',
};

/** The statement's text, with the URL it names (the supervisory authority's, the CPPA's) as a link. */
function statementHtml(right: RightStatement, controller: ControllerProfileFields | null): Html {
  const url = [controller?.supervisory_authority?.url, CPPA_COMPLAINT_URL].find((u) => u && right.statement.includes(u));
  if (!url) return element('span', right.statement);
  const [before = '', ...rest] = right.statement.split(url);
  return element('span', [before, link(url, url), rest.join(url)]);
}

function rightItem(right: RightStatement, controller: ControllerProfileFields | null): Html {
  return raw(element('strong', `${rightTitle(right.right)} (${right.article}). `).html + statementHtml(right, controller).html);
}

/** The rights as one list, or one list per regulation under its heading when the letter names both. */
function rightLists(rights: readonly RightStatement[], controller: ControllerProfileFields | null): Html[] {
  const groups = (Object.keys(REGULATION_HEADINGS) as Regulation[])
    .map((regulation) => ({ regulation, rights: rights.filter((r) => r.regulation === regulation) }))
    .filter((group) => group.rights.length > 0);
  const grouped = groups.reduce((n, group) => n + group.rights.length, 0) === rights.length;
  if (groups.length < 2 || !grouped) return [list(rights.map((right) => rightItem(right, controller)))];
  return groups.flatMap((group) => [
    element('h3', REGULATION_HEADINGS[group.regulation]),
    list(group.rights.map((right) => rightItem(right, controller))),
  ]);
}

/**
 * "Your rights", in plain words to the person: the rights of the request's regulations (GDPR
 * Art. 15–18, 20, 21, 77; CCPA §§1798.100–1798.125), each regulation under its own heading when
 * both apply, the complaint addresses as links; where the data came from (GDPR Art. 15(1)(g): this
 * service's own records from the sign-in provider and the code hosts; with `otherSystems`, each
 * other system's as its part says);
 * and that no automated decision is made about them (Art. 15(1)(h)).
 */
export function rightsPart(
  rights: readonly RightStatement[],
  controller: ControllerProfileFields | null,
  adm: AutomatedDecisionStatement,
  regulations: readonly Regulation[],
  otherSystems = false,
): Html {
  const cite = regulations.includes('gdpr') ? ' (GDPR Art. 15(1)(g))' : '';
  // The sign-in provider and the code hosts are where this service's own records come from; another
  // system's data came from where its controller declared (PRODUCT §2.17), said in its part.
  const origin = otherSystems
    ? 'What this service records itself, we received from the sign-in provider and from GitHub or GitLab, which the ' +
      'organisation connected to us, not from you directly. Where the data of each other system came from is said in its part above.'
    : 'We received your data from the sign-in provider and from GitHub or GitLab, which the organisation connected to ' +
      'us, not from you directly.';
  return element('section', [
    element('h2', 'Your rights'),
    ...rightLists(rights, controller),
    element('h3', 'Where your data came from'),
    element('p', `Each kind of data above says where it came from${cite}. ${origin}`),
    element('h3', 'Automated decisions'),
    element('p', adm.statement),
  ]);
}
