import { Type } from '@sinclair/typebox';
import { NAME_PATTERN } from './common.schemas.js';

/**
 * An e-mail address as the API accepts it: a local part without spaces, controls or the
 * characters RFC 5322 reserves, `@`, and a domain of ASCII letters, digits and hyphens with at
 * least one dot (internationalised domains in their `xn--` form). A plain pattern, so Pydantic
 * reports it exactly as the validator does (`string_pattern_mismatch`; docs/decisions.md).
 */
export const EMAIL_PATTERN = '^[^\\x00-\\x20@"<>()\\[\\],;:\\\\]{1,64}@[A-Za-z0-9-]{1,63}(\\.[A-Za-z0-9-]{1,63})+$';

/**
 * An absolute http(s) URL: the scheme, a host (no user info), then an optional path, query or
 * fragment, with no spaces, controls, quotes or angle brackets anywhere.
 */
export const HTTP_URL_PATTERN = '^https?://[^\\x00-\\x20"<>\\\\/?#@]+([/?#][^\\x00-\\x20"<>\\\\]*)?$';

const url = () => Type.String({ minLength: 1, maxLength: 2000, pattern: HTTP_URL_PATTERN });

/** The supervisory authority a data subject may complain to (GDPR Art. 77). */
export const SupervisoryAuthority = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  url: url(),
});

/**
 * `PUT …/workspaces/{workspace_id}/controller` body (PRODUCT §2.10): the whole profile; absent
 * optional fields are unset. Unknown fields are refused (`extra_forbidden`), as for policy
 * layers: a PUT replaces the profile, so a misspelt `dpo_contcat` would silently drop the DPO.
 */
export const ControllerProfileBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: NAME_PATTERN }),
    contact_email: Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN }),
    dpo_contact: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    representative: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    supervisory_authority: Type.Optional(SupervisoryAuthority),
    privacy_notice_url: Type.Optional(url()),
  },
  { additionalProperties: false },
);

/** A stored controller profile. */
export const ControllerProfileResponse = Type.Object({
  workspace_id: Type.String(),
  name: Type.String(),
  contact_email: Type.String(),
  dpo_contact: Type.Optional(Type.String()),
  representative: Type.Optional(Type.String()),
  supervisory_authority: Type.Optional(Type.Object({ name: Type.String(), url: Type.String() })),
  privacy_notice_url: Type.Optional(Type.String()),
  version: Type.Integer({ description: 'Counts the writes: 1 for the first' }),
  updated_at: Type.String({ format: 'date-time' }),
});
