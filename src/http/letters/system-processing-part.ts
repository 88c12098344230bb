import { definitions, type Html, list } from './html.js';
import type { SystemProcessing } from './letter.types.js';

/**
 * What the letter says of a field the controller did not declare (PRODUCT §2.17): that it did not,
 * naming it, never a text written for other data.
 */
const NOT_DECLARED: Readonly<Record<keyof SystemProcessing, (who: string) => string>> = {
  purposes: (who) => `${who} has not declared why this system holds your data.`,
  recipients: (who) => `${who} has not declared who receives data from this system.`,
  retention: (who) => `${who} has not declared how long this system keeps your data.`,
  source: (who) => `${who} has not declared where this system’s data came from.`,
};

/** One declared list, or the sentence saying it was not declared. */
function declared(items: string[] | null, field: keyof SystemProcessing, who: string): Html | string {
  return items === null ? NOT_DECLARED[field](who) : list(items);
}

/**
 * A data system's processing as its controller declared it (PRODUCT §2.11, §2.17; GDPR
 * Art. 15(1)(a), (c), (d), (g)): why it holds the data, who receives it, how long it is kept and
 * where it came from; for each field not declared, that `controllerName` has not declared it.
 */
export function systemProcessingPart(processing: SystemProcessing, controllerName: string): Html {
  return definitions([
    ['Why it holds your data', declared(processing.purposes, 'purposes', controllerName)],
    ['Who receives it', declared(processing.recipients, 'recipients', controllerName)],
    ['How long it is kept', declared(processing.retention, 'retention', controllerName)],
    ['Where it came from', declared(processing.source, 'source', controllerName)],
  ]);
}
