import {
  addErasureCounts,
  connectorAction,
  ConnectorError,
  type ConnectorTaskResult,
  type ErasureCounts,
  type Identities,
  NO_ERASURE,
  readErasureCounts,
  runConnectorTask,
  UnsupportedRequestTypeError,
} from '../../modules/connectors/connectors.js';
import type { RequestType } from '../../modules/request-model/request-model.js';
import type { DataTaskRow } from '../../modules/data-systems/data-task.repository.js';
import { setTaskIdentities, setTaskProgress } from '../../modules/data-systems/data-task-run.repository.js';
import { CORRECTABLE_FIELDS } from '../subject-data/correction.js';
import { resolveSubject } from '../../modules/subject-data/subject-data.repository.js';
import { subjectIdentities, systemTaskInput } from './connector-task-input.js';
import type { TaskResultInput } from '../../modules/data-systems/data-task-result.fns.js';
import { NOT_SEARCHABLE } from '../../modules/data-systems/data-task.fns.js';
import { notSearchable } from '../../modules/data-systems/searchable.fns.js';
import { type DataTaskExecutor, type TaskRunContext, TaskRunError } from './data-task-executor.js';

/**
 * The corrected values a correction task writes (PRODUCT §2.14): the subject's profile as the
 * operator's corrections left it (`POST …/corrections` applies them here first), by the category
 * of each correctable field. Values are never stored in the task's result.
 */
async function correctedValues(context: TaskRunContext): Promise<Record<string, string>> {
  const subject = await resolveSubject(context.db, context.request);
  if (!subject) return {};
  const out: Record<string, string> = {};
  for (const [field, { category }] of Object.entries(CORRECTABLE_FIELDS)) {
    const value = subject[field as keyof typeof CORRECTABLE_FIELDS];
    if (typeof value === 'string') out[category] = value;
  }
  return out;
}

/**
 * The task's result from what the run did: counts, the package part by collection, never values of
 * a correction. An erasure's counts include `earlier`: what the runs before an interruption
 * committed (PRODUCT §2.17).
 */
function toResult(run: ConnectorTaskResult, earlier: ErasureCounts): TaskResultInput {
  switch (run.type) {
    case 'access': {
      const rows = Object.fromEntries(Object.entries(run.collections).map(([name, found]) => [name, { rows: found.length }]));
      return { outcome: 'completed', records: run.records, data: run.collections, data_by: 'collection', collections: rows };
    }
    case 'erasure': {
      const all = addErasureCounts(earlier, run);
      const collections = Object.fromEntries(
        Object.entries(all.collections).map(([name, c]) => [name, { masked: c.masked, deleted: c.deleted }]),
      );
      return { outcome: 'completed', erased: { ...all.erased }, collections };
    }
    case 'correction': {
      const updated = Object.fromEntries(Object.entries(run.collections).map(([name, c]) => [name, { updated: c.updated }]));
      return { outcome: 'completed', collections: updated };
    }
  }
}

/** The subject's identities the task kept when it was created (sealed), or as the service knows them now. */
async function taskIdentities(task: DataTaskRow, context: TaskRunContext): Promise<Identities> {
  return task.identities_ciphertext === null
    ? subjectIdentities(context.db, context.request)
    : (JSON.parse(context.secretBox.open(task.identities_ciphertext)) as Identities);
}

/**
 * A database the service reaches itself (`postgres`, `mysql`: PRODUCT §2.14). Nothing is sent
 * when its task is created; the worker runs it (jobs/task-runner.ts) with the connectors module:
 * access/export read the subject's rows in scope (`systems.<key>.<collection>` in the package),
 * deletion masks or deletes them (counts per collection in the report, with what an interrupted
 * earlier run committed, kept in the task's `run_progress`), correction writes the corrected
 * categories; a system none of whose identity fields the request's identities name is not
 * searched at all (`not_searchable`, PRODUCT §2.17). A `ConnectorError` becomes a
 * {@link TaskRunError} with its own message (system, collection, reason: never the URL or
 * credentials) and its `retryable`; a request type the connector has no action for fails the
 * task at once, before any statement.
 */
export const connectorExecutor: DataTaskExecutor = {
  manual: false,
  /** Keeps the subject's identities as they are now, sealed: a deletion erases them here before the task runs. */
  async announce(unit, { task, identities, seal }) {
    if (!seal) return;
    await setTaskIdentities(unit.tx, task.id, seal(JSON.stringify((await identities()).identities)));
  },
  async run(task, system, context) {
    const requestType = task.request_type as RequestType;
    const earlier = readErasureCounts(task.run_progress) ?? NO_ERASURE;
    try {
      const action = connectorAction(requestType);
      const identities = await taskIdentities(task, context);
      const input = systemTaskInput(
        system,
        { secretBox: context.secretBox, connectors: context.connectors, pseudonymKey: context.pseudonymKey },
        {
          requestType,
          categories: JSON.parse(task.categories) as string[],
          identities,
          ...(action === 'correct' ? { corrections: await correctedValues(context) } : {}),
        },
      );
      // A system none of whose identity fields the request can fill was not searched (PRODUCT §2.17): no connection, no "none".
      const unsearchable = notSearchable(input.dataset, identities);
      if (unsearchable !== null) return { outcome: NOT_SEARCHABLE, ...unsearchable };
      const onErasureProgress = async (done: ErasureCounts) => {
        await setTaskProgress(context.db, task.id, JSON.stringify(addErasureCounts(earlier, done)));
      };
      return toResult(await runConnectorTask({ ...input, onErasureProgress }), earlier);
    } catch (error) {
      if (error instanceof ConnectorError) throw new TaskRunError(error.message, error.retryable);
      if (error instanceof UnsupportedRequestTypeError) throw new TaskRunError(`${task.system_key}: ${error.message}`, false);
      throw error;
    }
  },
};
