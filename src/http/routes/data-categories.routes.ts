import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DATA_CATEGORIES, isScopeKey, TAXONOMY_SOURCE } from '../../modules/data-categories/data-categories.fns.js';
import { BEARER_SECURITY, withErrors } from '../schemas/common.schemas.js';

const DataCategoryItem = Type.Object({
  fides_key: Type.String(),
  name: Type.String({ description: 'What it is, in plain words' }),
  parent_key: Type.Union([Type.String(), Type.Null()]),
  scope: Type.Boolean({ description: 'valid in a request `scope` and a data system `categories` (`user.*`)' }),
});

const DataCategoryList = Type.Object({
  items: Type.Array(DataCategoryItem),
  source: Type.Object({
    keys_compatible_with: Type.String({ description: 'The taxonomy whose keys these are (Fides datasets validate unchanged)' }),
  }),
});

/** The answer never changes while the process runs: built once. */
const BODY = Object.freeze({
  items: DATA_CATEGORIES.map((c) => ({ ...c, scope: isScopeKey(c.fides_key) })),
  source: TAXONOMY_SOURCE,
});

/**
 * `GET /api/v1/data-categories` (PRODUCT §2.14): the Fides default taxonomy the service accepts.
 * Any authenticated token may read it (no scope: it is public reference data, the same for every
 * workspace, and the console's scope pickers need it with any token).
 */
export async function dataCategoryRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '',
    { schema: { tags: ['data-categories'], security: BEARER_SECURITY, response: withErrors({ 200: DataCategoryList }) } },
    async () => BODY,
  );
}
