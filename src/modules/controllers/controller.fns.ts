import type { ControllerProfile, ControllerProfileFields } from './controller.types.js';

const OPTIONAL_TEXT = ['dpo_contact', 'representative', 'privacy_notice_url'] as const;

const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The fields of a stored profile (`profile` column JSON), keeping only those of the expected
 * shape (a row written by a later release with more fields still reads).
 * @throws SyntaxError when the column is not JSON.
 */
export function readProfileFields(json: string): ControllerProfileFields {
  const stored = JSON.parse(json) as Record<string, unknown>;
  const fields: ControllerProfileFields = {
    name: text(stored.name) ? stored.name : '',
    contact_email: text(stored.contact_email) ? stored.contact_email : '',
  };
  for (const key of OPTIONAL_TEXT) {
    const value = stored[key];
    if (text(value)) fields[key] = value;
    const authority = stored.supervisory_authority as Record<string, unknown> | null | undefined;
    // Declaration order (what the audit entry lists): the authority comes before the notice.
    if (key === 'representative' && authority && text(authority.name) && text(authority.url))
      fields.supervisory_authority = { name: authority.name, url: authority.url };
  }
  return fields;
}

/**
 * The profile's fields in their fixed order, without anything else the caller's object held
 * (what is stored and what the API answers).
 */
export function profileFields(input: ControllerProfileFields): ControllerProfileFields {
  return readProfileFields(JSON.stringify(input));
}

/** The names of the fields a profile sets, in their fixed order (what the audit entry records). */
export function fieldNames(fields: ControllerProfileFields): string[] {
  return Object.keys(profileFields(fields));
}

/** A stored profile as the API and the packages show it. */
export function toControllerProfile(row: {
  workspace_id: string;
  profile: string;
  version: number;
  updated_at: string;
}): ControllerProfile {
  return { workspace_id: row.workspace_id, ...readProfileFields(row.profile), version: row.version, updated_at: row.updated_at };
}
