import { isEmptyValue, renderValue } from './data-part.js';
import { element, type Html, raw } from './html.js';
import type { SystemPart } from './letter.types.js';

/**
 * "Other systems that answered" (PRODUCT §2.9): each data system's part of the answer, by name.
 * Nothing at all when no system answered (the section is left out).
 */
export function systemsPart(systems: readonly SystemPart[] | undefined): Html {
  if (!systems || systems.length === 0) return raw('');
  return element('section', [
    element('h2', 'Other systems that answered'),
    element('p', 'These systems of the organisation hold data about you and gave their part of this answer.'),
    ...systems.map((system) =>
      element(
        'section',
        [
          element('h3', system.name === system.key ? system.name : `${system.name} (${system.key})`),
          isEmptyValue(system.data) ? element('p', 'This system holds no data of yours.', 'empty') : renderValue(system.data),
        ],
        'category',
      ),
    ),
  ]);
}
