import { datasetSummary, type Dataset, type Identities } from '../connectors/connectors.js';

/** Why a database system cannot be searched for a request (PRODUCT §2.17): identity names only, never values. */
export interface NotSearchable {
  /** The identities the system's dataset is searched by (`fides_meta.identity` names, in dataset order). */
  searched_by: string[];
  /** The identities the request had (names with at least one value). */
  request_had: string[];
}

/**
 * Whether a database system can be searched with a request's identities (PRODUCT §2.17): it can
 * when one of its identity fields names an identity the request has a value for. @returns null
 * when it can; otherwise what it is searched by and what the request had, for the task's
 * `not_searchable` result and the letter's sentence.
 */
export function notSearchable(dataset: Dataset, identities: Identities): NotSearchable | null {
  const searchedBy = datasetSummary(dataset).identities;
  const had = Object.entries(identities)
    .filter(([, values]) => values.length > 0)
    .map(([name]) => name);
  if (searchedBy.some((name) => had.includes(name))) return null;
  return { searched_by: searchedBy, request_had: had };
}
