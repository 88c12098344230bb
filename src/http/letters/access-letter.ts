import { categoriesPart } from './categories-part.js';
import { controllerName, controllerPart } from './controller-part.js';
import { escapeHtml } from './escape.js';
import { element, type Html, raw, readableTime } from './html.js';
import { LETTER_CSS } from './letter-style.js';
import type { LetterInput } from './letter.types.js';
import { requestPart } from './request-part.js';
import { rightsPart } from './rights-part.js';
import { systemsPart } from './systems-part.js';
import { notSearchedPart } from './not-searched-part.js';

function headerPart(input: LetterInput): Html {
  const from = input.controller ? `From ${input.controller.name}` : 'From the privacy team';
  return element('header', [
    element('p', from, 'from'),
    element('h1', `Your personal data held by ${controllerName(input.controller)}`),
    element('p', `Our answer to your request ${input.request.id}, of ${readableTime(input.generated_at)}.`, 'meta'),
  ]);
}

function footerPart(input: LetterInput): Html {
  return element('footer', [
    element(
      'p',
      `Prepared ${readableTime(input.generated_at)} for your request ${input.request.id}. ` +
        'The same answer is also available as a machine-readable file (JSON).',
    ),
  ]);
}

/** "No personal data about you" (PRODUCT §2.13): the confirmed no-data answer, first; absent otherwise. */
function confirmationPart(statement: string | undefined): Html {
  if (!statement) return raw('');
  return element('section', [element('h2', 'No personal data about you'), element('p', statement)]);
}

/**
 * The readable letter of an access or export answer (PRODUCT §2.11): a complete, self-contained
 * HTML document (inline CSS only; no script and nothing to load), printable, with every value
 * escaped. Sections: who answers (the controller), what was asked and when, each category in
 * plain words with its data and processing, the other systems' parts when there are any, the
 * systems that could not be searched with what the person gave (PRODUCT §2.17), and
 * the person's rights under the request's regulations (GDPR Art. 15(1)(e)–(h); CCPA §§1798.100–1798.125).
 */
export function renderAccessLetter(input: LetterInput): string {
  const body = [
    headerPart(input),
    controllerPart(input.controller),
    requestPart(input),
    confirmationPart(input.no_data_confirmation),
    categoriesPart(input.categories),
    systemsPart(input.systems, input.controller?.name ?? 'The organisation'),
    notSearchedPart(input.not_searched),
    rightsPart(
      input.rights,
      input.controller,
      input.automated_decision_making,
      input.regulations,
      (input.systems ?? []).length > 0,
    ),
    footerPart(input),
  ];
  const title = `Your personal data: answer to request ${input.request.id}`;
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(title)}</title>\n<style>${LETTER_CSS}</style>\n</head>\n` +
    `<body>\n<main>\n${body.map((part) => part.html).join('\n')}\n</main>\n</body>\n</html>\n`
  );
}
