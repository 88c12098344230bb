import { identityFound } from '../../modules/subject-data/subject-data.repository.js';
import { waitForController } from './controller-named.js';
import type { HandlerContext, HandlerOutcome, RequestHandler } from './handler.types.js';

/**
 * A read-only handler (`readOnly`: run outside any transaction, reading in pages) that completes
 * with the package `build` makes of the subject and its linked identities in scope, and says
 * whether this service's store knew the identity. Without a controller profile it waits first
 * ({@link waitForController}). A retry gives the same package (but a later `generated_at`).
 */
export function packageHandler(build: (ctx: HandlerContext) => Promise<unknown>): RequestHandler {
  return Object.assign(
    async (ctx: HandlerContext): Promise<HandlerOutcome> =>
      (await waitForController(ctx.tx, ctx.request.workspace_id)) ?? {
        status: 'completed',
        package: await build(ctx),
        found: await identityFound(ctx.tx, ctx.request, ctx.pseudonymKey),
      },
    { readOnly: true },
  );
}
