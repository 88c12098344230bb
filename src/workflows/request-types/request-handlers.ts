import type { RequestType } from '../../modules/request-model/request-model.js';
import { accessHandler } from './access.handler.js';
import { correctionHandler } from './correction.handler.js';
import { deletionHandler } from './deletion.handler.js';
import { exportHandler } from './export.handler.js';
import type { RequestHandler } from './handler.types.js';

/**
 * Each request type's own step on this service's store, run by the worker (the worker's default;
 * tests may pass their own). A new type in `REQUEST_TYPES` is a compile error here until it has a
 * handler, as in `REQUEST_TYPE_TRAITS` (src/modules/privacy-requests/request-types.ts).
 */
export const REQUEST_HANDLERS: Readonly<Record<RequestType, RequestHandler>> = {
  access: accessHandler,
  export: exportHandler,
  correction: correctionHandler,
  deletion: deletionHandler,
};
