import type { RequestType } from '../request-model/request-model.js';

/** What one request type is and does: everything the lifecycle asks of a type, in one place. */
export interface RequestTypeTraits {
  /** The right it implements. */
  readonly article: string;
  /**
   * What completing it produces: a `package` (access, export: the subject's data, served at
   * `…/package`; systems report `data` for it) or a `report` (deletion, correction: what was
   * done, no personal data, served at `…/report`).
   */
  readonly result: 'package' | 'report';
  /** Waits in `action_required` for an operator's corrected values (`POST …/corrections`). */
  readonly takesCorrections: boolean;
  /**
   * Erases: its data tasks are created before its own step (their events carry identities the
   * erasure removes), a failure closes them, and what was sent about it is redacted when it ends.
   */
  readonly erases: boolean;
}

/**
 * Every request type's traits (PRODUCT §1, §2.3). A new type in `REQUEST_TYPES` is a compile
 * error here until it says what it is; the lifecycle, the worker and the results ask this record
 * instead of comparing type names. Each type's own step is its handler, in
 * src/workflows/request-types/request-handlers.ts (a record over the same types).
 */
export const REQUEST_TYPE_TRAITS: Readonly<Record<RequestType, RequestTypeTraits>> = {
  access: { article: 'GDPR Art. 15', result: 'package', takesCorrections: false, erases: false },
  export: { article: 'GDPR Art. 20', result: 'package', takesCorrections: false, erases: false },
  correction: { article: 'GDPR Art. 16', result: 'report', takesCorrections: true, erases: false },
  deletion: { article: 'GDPR Art. 17', result: 'report', erases: true, takesCorrections: false },
};

/** A stored type that is none of the request types (a corrupted row): the attempt fails. */
export class UnknownRequestTypeError extends Error {
  constructor(readonly requestType: string) {
    super('unknown request type');
  }
}

/** The traits of a stored request's type. @throws UnknownRequestTypeError. */
export function traitsOf(requestType: string): RequestTypeTraits {
  const traits = (REQUEST_TYPE_TRAITS as Record<string, RequestTypeTraits | undefined>)[requestType];
  if (!traits) throw new UnknownRequestTypeError(requestType);
  return traits;
}
