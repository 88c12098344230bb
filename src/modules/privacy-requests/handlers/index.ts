import { accessHandler } from './access.handler.js';
import { correctionHandler } from './correction.handler.js';
import { deletionHandler } from './deletion.handler.js';
import type { RequestHandler } from './handler.types.js';
import { exportHandler } from './export.handler.js';

/** One handler per request type (PRODUCT.md §2.3). */
export const REQUEST_HANDLERS: Record<string, RequestHandler> = {
  access: accessHandler,
  export: exportHandler,
  correction: correctionHandler,
  deletion: deletionHandler,
};
