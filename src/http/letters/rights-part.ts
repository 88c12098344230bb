import type { ControllerProfileFields } from '../../modules/controllers/controller.types.js';
import type { AutomatedDecisionStatement, RightStatement } from '../../modules/subject-data/package.types.js';
import { element, type Html, link, list, raw } from './html.js';

const RIGHT_WORDS: Readonly<Record<string, string>> = {
  rectification: 'Correction',
  erasure: 'Erasure',
  restriction: 'Restriction',
  objection: 'Objection',
  portability: 'Portability',
  complaint: 'Complaint',
};

/** The statement's text, its supervisory authority's URL (when it names one) as a link. */
function statementHtml(right: RightStatement, controller: ControllerProfileFields | null): Html {
  const url = right.right === 'complaint' ? controller?.supervisory_authority?.url : undefined;
  if (!url || !right.statement.includes(url)) return element('span', right.statement);
  const [before = '', ...rest] = right.statement.split(url);
  return element('span', [before, link(url, url), rest.join(url)]);
}

function rightItem(right: RightStatement, controller: ControllerProfileFields | null): Html {
  return raw(
    element('strong', `${RIGHT_WORDS[right.right] ?? right.right} (${right.article}). `).html +
      statementHtml(right, controller).html,
  );
}

/**
 * "Your rights" (GDPR Art. 15(1)(e)–(h)): rectification, erasure, restriction, objection,
 * portability, the complaint to the supervisory authority (linked when the profile names it),
 * where the data came from, and that no automated decision-making or profiling applies.
 */
export function rightsPart(
  rights: readonly RightStatement[],
  controller: ControllerProfileFields | null,
  adm: AutomatedDecisionStatement,
): Html {
  return element('section', [
    element('h2', 'Your rights'),
    list(rights.map((right) => rightItem(right, controller))),
    element('h3', 'Where your data came from'),
    element(
      'p',
      'Each category above names its source under “Where it came from” (GDPR Art. 15(1)(g)): this service receives ' +
        'your data from the identity provider and the code hosts the organisation connected to it, not from you directly.',
    ),
    element('h3', 'Automated decisions'),
    element('p', adm.statement),
  ]);
}
