import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { BEARER_SECURITY, withErrors } from '../schemas/common.schemas.js';
import { WhoAmI } from '../schemas/officer.schemas.js';

/**
 * `GET /api/v1/whoami`: the caller as the service knows it (id, name as the audit trail shows
 * it, scopes, workspaces), so the console shows only the actions it can take. Any valid token.
 */
export async function whoamiRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '',
    { schema: { tags: ['auth'], security: BEARER_SECURITY, response: withErrors({ 200: WhoAmI }, false) } },
    async (request) => {
      const { principal } = request;
      return {
        id: principal.id,
        name: principal.name,
        scopes: [...principal.scopes].sort(),
        workspaces: principal.workspaces === '*' ? ('*' as const) : [...principal.workspaces].sort(),
      };
    },
  );
}
