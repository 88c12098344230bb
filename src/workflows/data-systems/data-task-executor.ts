import type { ConnectorConfig } from '../../config/connector-settings.js';
import type { Executor } from '../../db/executor.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { PrivacyRequestRow } from '../../modules/request-model/request-model.js';
import type { DataSystemRow } from '../../modules/data-systems/data-system.repository.js';
import type { DataTaskRow } from '../../modules/data-systems/data-task.repository.js';
import type { TaskResultInput } from '../../modules/data-systems/data-task-result.fns.js';
import type { Identities } from '../../modules/connectors/connectors.js';

/**
 * The identities a system needs to find the person (PRODUCT §2.9, §2.17): the requested one, the
 * identity-provider subject it resolved to (when that differs), the accounts linked to it, and
 * all of them as the identities a database system is searched by (`identities`: `email`,
 * `phone_number`, `username`, `<provider>_id` → values; the request's own identity always among them).
 */
export interface SubjectIdentities {
  subject: { subject_provider: string; subject_id: string };
  idp_subject?: { subject_provider: string; subject_id: string };
  linked_accounts: { provider: string; account_id: string; login: string | null }[];
  identities: Identities;
}

/** What an executor gets when a task is created for its system, in the unit that creates it. */
export interface TaskCreation {
  task: DataTaskRow;
  system: DataSystemRow;
  /** The task's request (its subject). */
  request: PrivacyRequestRow;
  /** Seals a secret with the service's secret box (absent where the caller has none: then nothing is kept). */
  seal?: (plaintext: string) => string;
  /** The subject's identities (read once per request, and only when an executor asks). */
  identities(): Promise<SubjectIdentities>;
  /** Absolute URLs of the task, of its result and of its request (under `PUBLIC_BASE_URL`). */
  links: { task: string; result: string; request: string };
  /** When the task was created (RFC 3339 UTC). */
  at: string;
}

/**
 * How a kind of data system gets its tasks done (PRODUCT §2.9, §2.14). Every kind is told of a
 * new task in the unit that creates it ({@link DataTaskExecutor.announce}); a kind the service
 * runs itself (a database connector) also has {@link DataTaskExecutor.run}, which the worker
 * calls outside any transaction and whose answer is recorded as the task's result, exactly as a
 * system's own `POST /api/v1/data-tasks/{id}/result` would be.
 */
export interface DataTaskExecutor {
  /** True when an operator answers the task in the console (audited as `manual`). */
  readonly manual: boolean;
  /**
   * Tells the system of its new task, in the unit that creates it (nothing is sent if that rolls
   * back): a webhook system gets `data_task.created` at its endpoint; a manual one nothing.
   */
  announce(unit: UnitOfWork, creation: TaskCreation): Promise<void>;
  /**
   * Does the task in-process and answers it (a connector); absent when the system (or an
   * operator) answers through the API. @throws when the attempt failed (retried with backoff).
   */
  run?(task: DataTaskRow, system: DataSystemRow, context: TaskRunContext): Promise<TaskResultInput>;
}

/** What the worker gives an executor's run: where to read the service's own data, and its keys. */
export interface TaskRunContext {
  db: Executor;
  /** The task's request, as stored (its subject, type and workspace). */
  request: PrivacyRequestRow;
  secretBox: SecretBox;
  connectors: ConnectorConfig;
  pseudonymKey: string;
}

/**
 * How an executor's run fails: `message` is safe to store and show (it names the system and
 * what failed, e.g. a collection, never a connection URL, password or personal data);
 * `retryable` failures (a database down, slow, a lock) are tried again with the task's backoff,
 * others fail the task at once. Any other error counts as retryable and is stored by its class
 * name only.
 */
export class TaskRunError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'TaskRunError';
  }
}
