import { collectionsPart } from './collections-part.js';
import { isEmptyValue, renderValue } from './data-part.js';
import { element, type Html, raw } from './html.js';
import type { SystemPart } from './letter.types.js';
import { systemProcessingPart } from './system-processing-part.js';
import { taxonomyName } from './words.js';

/** "Content written or uploaded: 3, Contact details: 0": a system's counts by category, in plain words. */
function countsText(records: Record<string, number>): string {
  return Object.entries(records)
    .map(([key, n]) => `${taxonomyName(key)}: ${n}`)
    .join(', ');
}

/** A system's data: a database's by collection, under its categories' plain names (PRODUCT §2.17); any other as it sent it. */
function dataPart(system: SystemPart): Html[] {
  const collections = system.answer?.collections;
  return collections ? collectionsPart(system.data, collections) : [renderValue(system.data)];
}

/** True when the system said it holds nothing of the person: no data, no count above 0, not sent separately. */
function holdsNothing(system: SystemPart): boolean {
  const { answer } = system;
  if (answer === undefined || answer.delivered_separately || !isEmptyValue(system.data)) return false;
  return !Object.values(answer.records ?? {}).some((n) => n > 0);
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
  if (!isEmptyValue(system.data)) lines.push(...dataPart(system));
  else if (counted && !answer?.delivered_separately)
    lines.push(element('p', 'The system counted these records but did not send their content for this letter.'));
  else if (answer === undefined) lines.push(element('p', 'This system sent no data for this answer.', 'empty'));
  else if (holdsNothing(system)) lines.push(element('p', 'This system holds no data of yours.', 'empty'));
  return lines;
}

/**
 * How the system uses the data, as its controller declared it (PRODUCT §2.17): shown for a system
 * that holds something of the person and whose package recorded the declarations; nothing for a
 * system that holds nothing, or a package from before declarations were recorded.
 */
function processingLines(system: SystemPart, controllerName: string): Html[] {
  if (!system.processing || holdsNothing(system)) return [];
  return [element('h4', 'How this system uses your data'), systemProcessingPart(system.processing, controllerName)];
}

/**
 * "Other systems that answered" (PRODUCT §2.9, §2.13, §2.17): each data system's part of the
 * answer, by name: what it answered ({@link answerLines}) and how it uses the data
 * ({@link processingLines}; `controllerName` says who did not declare what is missing). Nothing
 * at all when no system answered (the section is left out).
 */
export function systemsPart(systems: readonly SystemPart[] | undefined, controllerName = 'The organisation'): Html {
  if (!systems || systems.length === 0) return raw('');
  return element('section', [
    element('h2', 'Other systems that answered'),
    element('p', 'These systems of the organisation were asked for your data; here is what each of them answered.'),
    ...systems.map((system) =>
      element(
        'section',
        [
          element('h3', system.name === system.key ? system.name : `${system.name} (${system.key})`),
          ...answerLines(system),
          ...processingLines(system, controllerName),
        ],
        'category',
      ),
    ),
  ]);
}
