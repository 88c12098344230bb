import { Type } from '@sinclair/typebox';
import { IDENTITY_FORMATS, INTEGRATION_KINDS } from '../../modules/integrations/integration.types.js';
import { StringEnum } from './common.schemas.js';

/** `POST /api/v1/integrations` body (PRODUCT.md §2.5). `namespace` is required for github/gitlab; `format` and `subject_provider` for identity. */
export const CreateIntegrationBody = Type.Object({
  kind: StringEnum(INTEGRATION_KINDS),
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  format: Type.Optional(StringEnum(IDENTITY_FORMATS)),
  subject_provider: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  secret: Type.String({
    minLength: 8,
    maxLength: 500,
    writeOnly: true,
    description: 'Never returned, logged or echoed in errors.',
  }),
});

/** An integration (never its secret). */
export const IntegrationResource = Type.Object({
  id: Type.String(),
  kind: StringEnum(INTEGRATION_KINDS),
  workspace_id: Type.String(),
  namespace: Type.Union([Type.String(), Type.Null()]),
  format: Type.Union([StringEnum(IDENTITY_FORMATS), Type.Null()]),
  subject_provider: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  webhook_path: Type.String(),
});

export const IntegrationList = Type.Object({ items: Type.Array(IntegrationResource) });
export const IntegrationIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });
export const IntegrationListQuery = Type.Object({ workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) });
