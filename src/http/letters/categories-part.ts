import { isEmptyValue, renderValue } from './data-part.js';
import { definitions, element, type Html, list } from './html.js';
import type { CategoryPart } from './letter.types.js';
import { categoryWords } from './words.js';

/** Purposes, recipients, retention and source of one category (GDPR Art. 15(1)(a), (c), (d), (g)). */
function processingPart(part: CategoryPart): Html | null {
  const p = part.processing;
  if (!p) return null;
  return definitions([
    ['Why we hold it', list(p.purposes)],
    ['Who receives it', list(p.recipients)],
    ['How long we keep it', p.retention || undefined],
    ['Where it came from', list(p.source)],
  ]);
}

/**
 * One category: a heading in plain words, its data (or that there is none), and its processing.
 * A category holding nothing of the person gets no processing: those texts describe this service's
 * own (code-host) records, and there are none to describe (PRODUCT §2.17).
 */
function categoryPart(part: CategoryPart): Html {
  const empty = isEmptyValue(part.data);
  const data = empty ? element('p', 'We hold no data of yours in this category.', 'empty') : renderValue(part.data);
  const processing = empty ? null : processingPart(part);
  return element(
    'section',
    [element('h3', categoryWords(part.key)), data, ...(processing ? [element('h4', 'How we use it'), processing] : [])],
    'category',
  );
}

/** "Your data": every category of the answer, in the package's order. */
export function categoriesPart(categories: readonly CategoryPart[]): Html {
  return element('section', [
    element('h2', 'Your data'),
    ...(categories.length === 0 ? [element('p', 'The request covered no category we hold.')] : []),
    ...categories.map(categoryPart),
  ]);
}
