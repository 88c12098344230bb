import type { RequestType } from '../request-model/request-model.js';

/** What a connector does in a database for a request: read the subject's rows, correct them, or erase them. */
export type ConnectorAction = 'read' | 'correct' | 'erase';

/** A request type the connectors do not know: thrown before any connection or statement. */
export class UnsupportedRequestTypeError extends Error {
  constructor(readonly requestType: string) {
    super(`the database connector has no action for request type ${JSON.stringify(requestType).slice(0, 60)}`);
    this.name = 'UnsupportedRequestTypeError';
  }
}

/**
 * The one decision per request type (PRODUCT §1, §2.14; issue 32 item 7), for the service's own
 * {@link RequestType} list: access and export read, correction corrects, deletion erases. The
 * switch is exhaustive: a new request type fails to compile here until it is given an action, and a
 * value outside the list at run time (a stored row, a cast) throws instead of reaching a write.
 * @throws UnsupportedRequestTypeError
 */
export function connectorAction(type: RequestType): ConnectorAction {
  switch (type) {
    case 'access':
    case 'export':
      return 'read';
    case 'correction':
      return 'correct';
    case 'deletion':
      return 'erase';
    default: {
      const unknown: never = type;
      throw new UnsupportedRequestTypeError(String(unknown));
    }
  }
}
