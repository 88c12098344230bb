import { createHmac } from 'node:crypto';
import type { ConnectorConfig } from '../../config/connector-settings.js';
import type { Executor } from '../../db/executor.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { ConnectorKind, ConnectorTaskInput, Identities } from '../../modules/connectors/connectors.js';
import { openConnection } from '../../modules/data-systems/sealed-connection.js';
import type { RequestType } from '../../modules/request-model/request-model.js';
import { requestIdentity } from '../../modules/subject-data/request-identity.fns.js';
import { resolveSubject } from '../../modules/subject-data/subject-data.repository.js';
import { listLinkedIdentities } from '../../modules/subjects/subject.repository.js';
import type { DataSystemRow } from '../../modules/data-systems/data-system.repository.js';
import { isDatabaseKind } from '../../modules/data-systems/data-system-input.fns.js';
import { NotADatabaseSystemError } from '../../modules/data-systems/data-system.types.js';
import { storedDataset } from '../../modules/data-systems/stored-dataset.js';

/**
 * The key of the `hmac` masking strategy for one workspace (PRODUCT §2.14: keyed per workspace,
 * deterministic): HMAC-SHA-256 of `connector-masking:<workspace>` under the service's pseudonym
 * key, hex. The same workspace always masks a value the same way; two workspaces never do.
 */
export function connectorMaskingKey(pseudonymKey: string, workspaceId: string): string {
  return createHmac('sha256', pseudonymKey).update(`connector-masking:${workspaceId}`).digest('hex');
}

/**
 * The identities a data system is searched by for a request (PRODUCT §2.17, §2.14): the
 * request's own identity under its dataset name (`email`: the address trimmed, as given and
 * lower-cased; `phone_number`: E.164; `<provider>_id` otherwise: {@link requestIdentity}), and
 * when the service knows the subject (its IdP profile, or an account linked to it), the
 * profile's `email` and `username`, the profile's own identity and `<provider>_id` of each
 * linked account, and each account's login as a `username`. Name → values, each value once.
 */
export async function subjectIdentities(
  db: Executor,
  key: { workspace_id: string; subject_provider: string; subject_id: string },
): Promise<Identities> {
  const out = new Map<string, Set<string>>();
  const add = (name: string, value: string | null | undefined) => {
    if (value) out.set(name, (out.get(name) ?? new Set()).add(value));
  };
  const own = requestIdentity(key.subject_provider, key.subject_id);
  for (const value of own.values) add(own.name, value);
  const subject = await resolveSubject(db, key);
  if (subject) {
    add('email', subject.email);
    add('username', subject.username);
    const profile = requestIdentity(subject.subject_provider, subject.subject_id);
    for (const value of profile.values) add(profile.name, value);
    for (const account of await listLinkedIdentities(db, subject.id)) {
      add(`${account.provider}_id`, account.account_id);
      add('username', account.login);
    }
  }
  return Object.fromEntries([...out].map(([name, values]) => [name, [...values]]));
}

/**
 * A database system's part of a connector run: kind, decrypted URL, dataset, limits, allowed
 * hosts and the workspace's masking key; the caller adds the request's part (type, categories,
 * identities, corrections). @throws NotADatabaseSystemError for webhook and manual systems.
 */
export function systemTaskInput(
  row: DataSystemRow,
  deps: { secretBox: SecretBox; connectors: ConnectorConfig; pseudonymKey: string },
  request: {
    requestType: RequestType;
    categories: readonly string[];
    identities: Identities;
    corrections?: Readonly<Record<string, string>>;
  },
): ConnectorTaskInput {
  if (!isDatabaseKind(row.kind) || row.connection_ciphertext === null || row.dataset === null)
    throw new NotADatabaseSystemError(row.kind);
  // Checked when it was stored; read once per system version, never parsed again per task (PRODUCT §2.17).
  const dataset = storedDataset(row);
  if (dataset === null) throw new Error(`stored dataset of system ${row.key} no longer reads`);
  return {
    kind: row.kind as ConnectorKind,
    ...openConnection(deps.secretBox, row.connection_ciphertext),
    system: row.key,
    dataset,
    ...request,
    hmacKey: connectorMaskingKey(deps.pseudonymKey, row.workspace_id),
    limits: { statementTimeoutMs: deps.connectors.statementTimeoutMs, maxRows: deps.connectors.maxRows },
    allowedHosts: deps.connectors.allowedHosts,
  };
}
