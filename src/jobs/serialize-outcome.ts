import { stringifyYielding } from '../lib/yielding.js';
import type { HandlerOutcome } from '../workflows/request-types/handler.types.js';
import type { SerializedResult } from '../workflows/own-step/record-own-step.js';

/**
 * The outcome's package and report as JSON text, serialized in slices ({@link stringifyYielding})
 * with `pause` between them; both null unless `completed`.
 * @throws whatever `pause` throws (WorkerStopping when the worker stops).
 */
export async function serializeOutcome(outcome: HandlerOutcome, pause: () => Promise<void>): Promise<SerializedResult> {
  if (outcome.status !== 'completed') return { pkg: null, report: null };
  const json = async (value: unknown) => (value === undefined ? null : ((await stringifyYielding(value, pause)) ?? null));
  return { pkg: await json(outcome.package), report: await json(outcome.report) };
}
