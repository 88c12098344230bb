import { Type } from '@sinclair/typebox';
import { DRP_STATUSES, DRP_SUPPORTABLE_ACTIONS } from '../../modules/drp/drp.types.js';
import { NAME_PATTERN, StringEnum } from './common.schemas.js';

/** A DRP id (`business_id`, `agent_id`): PRODUCT §2.19's pattern. */
const DrpId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,100}$' });
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: NAME_PATTERN });
const Url = Type.String({ minLength: 1, maxLength: 2000 });
const Contact = Type.String({ minLength: 1, maxLength: 500, pattern: NAME_PATTERN });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** `PUT /api/v1/workspaces/{workspace_id}/drp` body (PRODUCT §2.19). */
export const DrpSettingsBody = Type.Object({
  enabled: Type.Boolean(),
  business_id: DrpId,
  name: Name,
  supported_actions: Type.Optional(
    Type.Array(StringEnum(DRP_SUPPORTABLE_ACTIONS), {
      maxItems: 4,
      description: 'Subset of access, deletion, sale:opt-out, sale:opt-in (default all four).',
    }),
  ),
  logo: Type.Optional(Url),
  web_url: Type.Optional(Url),
  privacy_policy_url: Type.Optional(Url),
  technical_contact: Type.Optional(Contact),
  business_contact: Type.Optional(Contact),
});

/** The DRP Business Discovery Document (PRODUCT §2.19). */
const DirectoryEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  logo: Type.Optional(Type.String()),
  api_base: Type.String(),
  supported_actions: Type.Array(Type.String()),
  supported_verifications: Type.Array(Type.String()),
  web_url: Type.Optional(Type.String()),
  privacy_policy_url: Type.Optional(Type.String()),
  technical_contact: Type.Optional(Type.String()),
  business_contact: Type.Optional(Type.String()),
});

/** The workspace's DRP settings, as GET and PUT answer them. */
export const DrpSettingsResponse = Type.Object({
  workspace_id: Type.String(),
  enabled: Type.Boolean(),
  business_id: Type.String(),
  name: Type.String(),
  supported_actions: Type.Array(Type.String()),
  logo: Nullable(Type.String()),
  web_url: Nullable(Type.String()),
  privacy_policy_url: Nullable(Type.String()),
  technical_contact: Nullable(Type.String()),
  business_contact: Nullable(Type.String()),
  updated_at: Type.String({ format: 'date-time' }),
  directory_entry: DirectoryEntry,
});

const VerifyKey = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The Ed25519 public key: standard Base64 of its 32 raw bytes (padding optional).',
});

/** `POST /api/v1/drp/agents` body: the fields of the operators' Agent Discovery Document. */
export const CreateDrpAgentBody = Type.Object({
  workspace_id: Type.String({ minLength: 1, maxLength: 200 }),
  agent_id: DrpId,
  name: Name,
  verify_key: VerifyKey,
  web_url: Type.Optional(Url),
  identity_assurance_url: Type.Optional(Url),
  technical_contact: Type.Optional(Contact),
  business_contact: Type.Optional(Contact),
  confirm_with_consumer: Type.Optional(Type.Boolean()),
});

/** `PATCH /api/v1/drp/agents/{id}` body: absent fields stay; a detail set to null is cleared. */
export const UpdateDrpAgentBody = Type.Object({
  name: Type.Optional(Name),
  verify_key: Type.Optional(VerifyKey),
  confirm_with_consumer: Type.Optional(Type.Boolean()),
  disabled: Type.Optional(Type.Boolean()),
  web_url: Type.Optional(Nullable(Url)),
  identity_assurance_url: Type.Optional(Nullable(Url)),
  technical_contact: Type.Optional(Nullable(Contact)),
  business_contact: Type.Optional(Nullable(Contact)),
});

/** A registered agent. */
export const DrpAgentResource = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  agent_id: Type.String(),
  name: Type.String(),
  verify_key: Type.String(),
  key_fingerprint: Type.String({ description: 'SHA-256 of the 32 raw key bytes, lowercase hex.' }),
  web_url: Nullable(Type.String()),
  identity_assurance_url: Nullable(Type.String()),
  technical_contact: Nullable(Type.String()),
  business_contact: Nullable(Type.String()),
  confirm_with_consumer: Type.Boolean(),
  disabled: Type.Boolean(),
  paired_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const DrpAgentList = Type.Object({ items: Type.Array(DrpAgentResource) });
export const DrpAgentIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });
export const DrpAgentListQuery = Type.Object({ workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) });

/** `GET /api/v1/drp/requests` query (PRODUCT §2.19). */
export const DrpRequestListQuery = Type.Object({
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  agent_id: Type.Optional(DrpId),
  status: Type.Optional(StringEnum(DRP_STATUSES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
});

/** One DRP record of the officer's list: never a claim. */
export const DrpRequestListItem = Type.Object({
  request_id: Type.String(),
  agent_id: Type.String(),
  exercise: Type.String(),
  regime: Nullable(Type.String()),
  status: Type.String(),
  reason: Nullable(Type.String()),
  received_at: Type.String({ format: 'date-time' }),
  privacy_request_id: Nullable(Type.String()),
  opt_out_id: Nullable(Type.String()),
});

export const DrpRequestList = Type.Object({ items: Type.Array(DrpRequestListItem) });

/** `GET /api/v1/drp/requests/{request_id}` path. */
export const DrpRequestIdParams = Type.Object({ request_id: Type.String({ minLength: 1, maxLength: 36 }) });

/** One DRP record with what the agent said beside the identity (PRODUCT §2.19 "In the queue"). */
export const DrpRequestDetail = Type.Composite([
  DrpRequestListItem,
  Type.Object({
    workspace_id: Type.String(),
    relationships: Type.Array(Type.String(), { description: 'DRP `relationships` hints, shown, never acted on.' }),
    proof_ref: Nullable(Type.String({ description: 'The `power_of_attorney` claim.' })),
    email_verified: Type.Union([Type.Boolean(), Type.Null()]),
    phone_number_verified: Type.Union([Type.Boolean(), Type.Null()]),
    address_verified: Type.Union([Type.Boolean(), Type.Null()]),
  }),
]);

/** `GET /api/v1/drp/agents/{id}/callbacks` query. */
export const DrpCallbackListQuery = Type.Object({
  status: Type.Optional(StringEnum(['pending', 'delivered', 'failed', 'superseded'] as const)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
});

/** A status callback with its attempts so far (never its payload). */
export const DrpCallbackList = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      request_id: Type.String(),
      url: Type.String(),
      status: Type.String(),
      attempts: Type.Integer(),
      last_error: Nullable(Type.String()),
      next_attempt_at: Nullable(Type.String({ format: 'date-time' })),
      created_at: Type.String({ format: 'date-time' }),
      delivered_at: Nullable(Type.String({ format: 'date-time' })),
    }),
  ),
});
