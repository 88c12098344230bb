import type { Regulation } from '../request-model/request-model.js';

/**
 * The person's rights, in plain words addressed to them, by the regulations a request is under
 * (PRODUCT §2.13 "Letters per regulation, in plain words"): the one place the letter, the
 * package's `rights` and the mails take them from.
 */

/** Who the person writes to: the controller's name and address, and its supervisory authority when named. */
export interface RightsController {
  name: string;
  contact_email: string;
  supervisory_authority?: { name: string; url: string } | undefined;
}

/** One right as a package states it, with the regulation that grants it. */
export interface Right {
  /** A stable key: GDPR `access` … `complaint`; CCPA `know` … `ccpa_complaint`. */
  right: string;
  /** The law that grants it, e.g. `GDPR Art. 16` or `Cal. Civ. Code §1798.105`. */
  article: string;
  /** What the right is and how to use it, to "you". */
  statement: string;
  regulation: Regulation;
}

/** The California Privacy Protection Agency's complaint page (Cal. Civ. Code §1798.199.45). */
export const CPPA_COMPLAINT_URL = 'https://cppa.ca.gov/webapplications/complaint';

const ORDER: readonly Regulation[] = ['gdpr', 'ccpa'];

/**
 * The regulations of a request's `regulation` label (`gdpr`, `ccpa`, `ccpa+gdpr`), GDPR first.
 * A label naming neither (none is stored today) is read as GDPR, the policy default (PRODUCT §2.4).
 */
export function regulationsOf(label: string): Regulation[] {
  const named = label.split('+');
  const known = ORDER.filter((r) => named.includes(r));
  return known.length > 0 ? known : ['gdpr'];
}

/** A right's name as a heading: `Access`, `Opt out of sale or sharing`, … (its key otherwise). */
export function rightTitle(right: string): string {
  return TITLES[right] ?? right;
}

const TITLES: Readonly<Record<string, string>> = {
  access: 'Access',
  rectification: 'Correction',
  erasure: 'Erasure',
  restriction: 'Restriction',
  portability: 'Portability',
  objection: 'Objection',
  complaint: 'Complaint',
  know: 'Right to know',
  delete: 'Right to delete',
  correct: 'Right to correct',
  opt_out: 'Right to opt out of sale or sharing',
  limit: 'Right to limit use of sensitive personal information',
  non_discrimination: 'No retaliation',
  ccpa_complaint: 'Complaint',
};

/** How to use a right: write to the controller by name, or to the organisation. */
function ask(controller: RightsController | null): string {
  return controller
    ? `write to ${controller.name} at ${controller.contact_email}`
    : 'write to the organisation that sent you this';
}

function gdprComplaint(controller: RightsController | null): string {
  const authority = controller?.supervisory_authority;
  const where = authority
    ? `, for example to ${authority.name} (${authority.url})`
    : ', in particular in the country where you live or work, or where you think the law was broken';
  return `You can complain to a data protection supervisory authority${where}.`;
}

function gdprRights(controller: RightsController | null): Right[] {
  const how = ask(controller);
  const gdpr = (right: string, article: string, statement: string): Right => ({ right, article, statement, regulation: 'gdpr' });
  return [
    gdpr('access', 'GDPR Art. 15', `You can ask at any time for a copy of your personal data and how we use it: ${how}.`),
    gdpr('rectification', 'GDPR Art. 16', `You can have wrong data about you corrected and incomplete data completed: ${how}.`),
    gdpr('erasure', 'GDPR Art. 17', `You can have your data deleted when we no longer need it or should not have it: ${how}.`),
    gdpr(
      'restriction',
      'GDPR Art. 18',
      `You can ask us to stop using your data, except to store it, while a disagreement about it is settled: ${how}.`,
    ),
    gdpr(
      'portability',
      'GDPR Art. 20',
      `You can get the data you gave us in a machine-readable file, to take it elsewhere: ${how}.`,
    ),
    gdpr(
      'objection',
      'GDPR Art. 21',
      `You can object to our use of your data based on our legitimate interests, for reasons of your own situation: ${how}.`,
    ),
    gdpr('complaint', 'GDPR Art. 77', gdprComplaint(controller)),
  ];
}

function ccpaRights(controller: RightsController | null): Right[] {
  const how = ask(controller);
  const ccpa = (right: string, article: string, statement: string): Right => ({ right, article, statement, regulation: 'ccpa' });
  return [
    ccpa(
      'know',
      'Cal. Civ. Code §1798.110',
      `You can ask what personal information we collect about you, where it comes from, why we use it and with whom we share it, and get a copy: ${how}.`,
    ),
    ccpa(
      'delete',
      'Cal. Civ. Code §1798.105',
      `You can ask us to delete the personal information we collected from you: ${how}.`,
    ),
    ccpa(
      'correct',
      'Cal. Civ. Code §1798.106',
      `You can ask us to correct personal information about you that is wrong: ${how}.`,
    ),
    ccpa('opt_out', 'Cal. Civ. Code §1798.120', `You can tell us not to sell or share your personal information: ${how}.`),
    ccpa(
      'limit',
      'Cal. Civ. Code §1798.121',
      `You can tell us to use your sensitive personal information only for what is needed to provide our services to you: ${how}.`,
    ),
    ccpa(
      'non_discrimination',
      'Cal. Civ. Code §1798.125',
      'We will not treat you worse for using these rights: no denied service, no different price and no lower quality.',
    ),
    ccpa(
      'ccpa_complaint',
      'Cal. Civ. Code §1798.199.45',
      `You can complain to the California Privacy Protection Agency (${CPPA_COMPLAINT_URL}).`,
    ),
  ];
}

/**
 * The person's rights under `regulations`: GDPR Art. 15–18, 20, 21 and 77 when GDPR applies;
 * CCPA's rights to know, delete, correct, opt out of sale or sharing, limit the use of sensitive
 * personal information, and not to be retaliated against (Cal. Civ. Code §§1798.100–1798.125),
 * with the complaint to the California Privacy Protection Agency, when CCPA applies; both, GDPR
 * first, when both do. Each says how to use it, naming `controller` when it is known.
 */
export function rightsUnder(regulations: readonly Regulation[], controller: RightsController | null): Right[] {
  return [
    ...(regulations.includes('gdpr') ? gdprRights(controller) : []),
    ...(regulations.includes('ccpa') ? ccpaRights(controller) : []),
  ];
}

/**
 * What a person whose request was declined can do (GDPR Art. 12(4): complain to a supervisory
 * authority and go to court; CCPA: complain to the California Privacy Protection Agency), as
 * sentences for a mail or a page. Plain text; URLs written out.
 */
export function whenDeclined(regulations: readonly Regulation[], controller: RightsController | null): string {
  const parts: string[] = [];
  if (regulations.includes('gdpr')) {
    const authority = controller?.supervisory_authority;
    parts.push(
      'You can complain to a data protection supervisory authority' +
        (authority ? `, for example ${authority.name}: ${authority.url}` : ', in the country where you live or work') +
        ', and you can take the matter to court (GDPR Articles 77 and 79).',
    );
  }
  if (regulations.includes('ccpa'))
    parts.push(
      `You can complain to the California Privacy Protection Agency: ${CPPA_COMPLAINT_URL} (Cal. Civ. Code §1798.199.45).`,
    );
  return parts.join(' ');
}

/**
 * That no decision about the person is made by automated means alone and no profiling is done
 * (GDPR Art. 15(1)(h), 22, cited when GDPR applies).
 */
export function noAutomatedDecisions(regulations: readonly Regulation[]): string {
  const cite = regulations.includes('gdpr') ? ' (GDPR Art. 22)' : '';
  return (
    `No decision about you is made by a computer alone, and we do not build a profile of you${cite}. ` +
    'The automatic checks on pull and merge requests decide about code repositories, not about you.'
  );
}
