import { DATA_CATEGORIES } from '../../modules/data-categories/data-categories.fns.js';
import { isEmptyValue, renderValue } from './data-part.js';
import { element, type Html, raw } from './html.js';
import type { SystemPart } from './letter.types.js';

const CATEGORY_NAMES = new Map(DATA_CATEGORIES.map((c) => [c.fides_key, c.name]));

/** "Content written or uploaded: 3, Contact details: 0": a system's counts by category, in plain words. */
function countsText(records: Record<string, number>): string {
  return Object.entries(records)
    .map(([key, n]) => `${CATEGORY_NAMES.get(key) ?? key}: ${n}`)
    .join(', ');
}

/**
 * What one system answered, in the words PRODUCT §2.13 allows: its data when it sent any; its
 * counts when it gave them; that its answer reaches the person separately when it said so; and
 * "holds no data of yours" only when the system said that (no data, and no count above 0). A
 * part without a recorded answer (a package from before answers were recorded) with no data
 * claims nothing about what the system holds.
 */
function answerLines(system: SystemPart): Html[] {
  const { answer } = system;
  const records = answer?.records ?? {};
  const counted = Object.values(records).some((n) => n > 0);
  const lines: Html[] = [];
  if (answer?.delivered_separately)
    lines.push(element('p', 'This system’s answer is sent to you separately, not in this letter.', 'separately'));
  if (Object.keys(records).length > 0) lines.push(element('p', `Records it holds about you: ${countsText(records)}.`, 'counts'));
  if (!isEmptyValue(system.data)) lines.push(renderValue(system.data));
  else if (counted && !answer?.delivered_separately)
    lines.push(element('p', 'The system counted these records but did not send their content for this letter.'));
  else if (answer === undefined) lines.push(element('p', 'This system sent no data for this answer.', 'empty'));
  else if (!counted && !answer.delivered_separately) lines.push(element('p', 'This system holds no data of yours.', 'empty'));
  return lines;
}

/**
 * "Other systems that answered" (PRODUCT §2.9, §2.13): each data system's part of the answer,
 * by name, as {@link answerLines} says it. Nothing at all when no system answered (the section
 * is left out).
 */
export function systemsPart(systems: readonly SystemPart[] | undefined): Html {
  if (!systems || systems.length === 0) return raw('');
  return element('section', [
    element('h2', 'Other systems that answered'),
    element('p', 'These systems of the organisation were asked for your data; here is what each of them answered.'),
    ...systems.map((system) =>
      element(
        'section',
        [element('h3', system.name === system.key ? system.name : `${system.name} (${system.key})`), ...answerLines(system)],
        'category',
      ),
    ),
  ]);
}
