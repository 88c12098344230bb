import { categoryName } from '../../modules/data-categories/data-categories.fns.js';
import type { Regulation } from '../../modules/request-model/request-model.js';
import { heldAnswerOf, type KeptItem, OPT_OUTS_WHAT, TOMBSTONES_WHAT } from '../../modules/subject-data/erasure-report.fns.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Why the record of the request stays, under the request's regulations (GDPR Art. 5(2), 17(3)(b); 11 CCR §7101). */
function requestRecordWhy(regulations: readonly Regulation[]): string {
  const laws = [
    ...(regulations.includes('gdpr') ? ['GDPR Art. 5(2) and 17(3)(b)'] : []),
    ...(regulations.includes('ccpa') ? ['for at least 24 months under the CCPA regulations, 11 CCR §7101'] : []),
  ];
  const cite = laws.length > 0 ? ` (${laws.join('; ')})` : '';
  return (
    `The law requires us to be able to prove that we answered your request${cite}. ` +
    'It keeps only what the request itself says: what you asked for, when, and the identity you gave (such as your e-mail address).'
  );
}

/** The entries of this service's own part of a stored report: each category's `kept` (`{what, why}`). */
function ownKept(report: Record<string, unknown>): { what: string; why: string }[] {
  const categories = isObject(report.categories) ? Object.values(report.categories) : [];
  return categories
    .flatMap((c) => (isObject(c) && Array.isArray(c.kept) ? c.kept.filter(isObject) : []))
    .map((k) => ({
      what: text(k.what),
      why: text(k.why),
    }));
}

/** Answers in transit the deletion left whole (PRODUCT §2.13), in plain words. */
function heldAnswers(report: Record<string, unknown>): KeptItem[] {
  const ids = [...new Set(ownKept(report).flatMap((k) => heldAnswerOf(k.what) ?? []))];
  return ids.map((id) => ({
    what: `Our answer to your request ${id}, which you have not downloaded yet`,
    why: 'So that the answer we owe you still reaches you. It is deleted like the rest once you download it, or when its time runs out, whichever comes first.',
  }));
}

/** What each data system kept, with the reason it gave (a legal hold such as tax law), named by the system and the category. */
function systemsKept(report: Record<string, unknown>): KeptItem[] {
  const systems = Array.isArray(report.systems) ? report.systems.filter(isObject) : [];
  return systems.flatMap((system) =>
    (Array.isArray(system.kept) ? system.kept.filter(isObject) : []).map((k) => ({
      what: `${categoryName(text(k.category))} in ${text(system.name) || text(system.key)}`,
      why: text(k.reason),
    })),
  );
}

/**
 * What a completed deletion kept, and why, in plain words to the person (PRODUCT §2.13, §2.17):
 * the record of the request itself (proof of the answer, GDPR Art. 5(2) / 11 CCR §7101, by the
 * request's `regulations`), each answer in transit left whole until fetched, the keyed hashes
 * that keep later notices about erased accounts anonymous, the person's opt-outs (only when they
 * had any; PRODUCT §2.18), and every record a data system kept
 * with the reason it gave. Read from the stored deletion report (`report`, parsed: its
 * categories' `kept` and its `systems`); the report's own `kept` entries stay for the officer.
 */
export function keptForPerson(report: unknown, regulations: readonly Regulation[]): KeptItem[] {
  const stored = isObject(report) ? report : {};
  const tombstones = ownKept(stored).some((k) => k.what === TOMBSTONES_WHAT);
  const optOuts = ownKept(stored).some((k) => k.what === OPT_OUTS_WHAT);
  return [
    {
      what: 'The record of this request: what you asked for, when, and how we answered it',
      why: requestRecordWhy(regulations),
    },
    ...heldAnswers(stored),
    ...(tombstones
      ? [
          {
            what: 'A scrambled code of each identity of yours we erased (such as your e-mail address), from which it cannot be read back',
            why: 'So that anything we receive about it later is stored without your identity.',
          },
        ]
      : []),
    ...(optOuts
      ? [
          {
            what: 'Your opt-out choices: which kind, your choice, where it came from, and when',
            why: 'To keep honouring your opt-out: without it, we could sell, share or market to you again.',
          },
        ]
      : []),
    ...systemsKept(stored),
  ];
}
