import type { Selectable } from 'kysely';
import type { IntegrationTable } from '../../db/tables/integration.table.js';
/** Webhook sources (PRODUCT.md §2.5). */
export const INTEGRATION_KINDS = ['github', 'gitlab', 'identity'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** Identity-provider payload formats: Standard Webhooks (canonical body), Clerk (via Svix), WorkOS Directory Sync. */
export const IDENTITY_FORMATS = ['standard', 'clerk', 'workos'] as const;
export type IdentityFormat = (typeof IDENTITY_FORMATS)[number];

/** A validated create body. */
export interface CreateIntegrationInput {
  kind: IntegrationKind;
  workspace_id: string;
  namespace?: string;
  format?: IdentityFormat;
  subject_provider?: string;
  secret: string;
}

/** An integration as the API shows it: its stored fields but never a secret (hash or ciphertext). */
export type IntegrationResource = Omit<Selectable<IntegrationTable>, 'secret_hash' | 'secret_ciphertext'> & {
  /** Where the source should deliver (path on this service; for identity with `?integration=<id>`). */
  webhook_path: string;
};

/** The webhook path of each kind (PRODUCT.md §2.6). */
export const WEBHOOK_PATHS: Record<IntegrationKind, string> = {
  github: '/webhook/prhost',
  gitlab: '/webhook/mrhost',
  identity: '/webhook/identity',
};
