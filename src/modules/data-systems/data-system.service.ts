import type { ConnectorConfig } from '../../config/connector-settings.js';
import { runUnitOfWork } from '../../db/unit-of-work.js';
import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { type ActorRef, actorFields, recordAudit } from '../audit/audit.repository.js';
import { type DatasetRead, datasetSummary, readDatasetYielding } from '../connectors/connectors.js';
import { coversWorkspace, type Principal } from '../principals/principal.js';
import {
  countLiveSystems,
  type DataSystemRow,
  endpointInWorkspace,
  fidesKeyTaken,
  findSystemById,
  insertSystemUnlessTaken,
  listLiveSystems,
  systemNames,
  updateSystem,
} from './data-system.repository.js';
import { sealConnection } from './sealed-connection.js';
import {
  checkConnectionField,
  checkDatabaseRequestTypes,
  checkDatasetField,
  checkDatasetKeyAlone,
  isDatabaseKind,
  settleCreate,
  shownBody,
} from './data-system-input.fns.js';
import { declaredProcessing, processingColumns } from './data-system-processing.fns.js';
import {
  type CreateDataSystemInput,
  DataSystemLimitError,
  DataSystemNotFoundError,
  DataSystemRefusedError,
  type DataSystemResource,
  EndpointNotInWorkspaceError,
  FidesKeyTakenError,
  type SystemProblem,
  SystemKeyTakenError,
  type UpdateDataSystemInput,
} from './data-system.types.js';
import { storedDataset } from './stored-dataset.js';

/** Maps a stored system to the API resource (never the connection). */
export function toSystemResource(row: DataSystemRow): DataSystemResource {
  // The stored dataset passed every check when it was stored: read once per version (stored-dataset.ts).
  const read = storedDataset(row);
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    key: row.key,
    name: row.name,
    kind: row.kind,
    categories: JSON.parse(row.categories) as string[],
    request_types: JSON.parse(row.request_types) as string[],
    endpoint_id: row.endpoint_id,
    due_days: row.due_days,
    dataset: read ? datasetSummary(read) : null,
    ...declaredProcessing(row),
    third_party: row.third_party === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Each item once, in first-seen order. */
const unique = (items: readonly string[]) => [...new Set(items)];

/** Dependencies of the registry. */
export interface DataSystemDeps {
  db: Executor;
  clock: Clock;
  /** Seals connection URLs (the service's secrets key). */
  secretBox: SecretBox;
  /** `CONNECTOR_ALLOWED_HOSTS` and `MAX_DATA_SYSTEMS_PER_WORKSPACE`. */
  connectors: Pick<ConnectorConfig, 'allowedHosts' | 'maxDataSystemsPerWorkspace'>;
}

/**
 * Data systems (PRODUCT §2.9, §2.14): a workspace's downstream systems that receive data tasks:
 * webhook, manual, or a database the service reaches itself (`postgres`, `mysql`) with a checked
 * Fides dataset and a sealed connection URL. Every change is audited (target `data_system`; never
 * the connection); a delete is soft (`deleted_at`): the system gets no new tasks, its open tasks
 * stay, its key stays reserved and its dataset's `fides_key` is freed.
 */
export function createDataSystemService(deps: DataSystemDeps) {
  const { db, clock, secretBox, connectors } = deps;

  async function checkEndpoint(tx: Executor, workspaceId: string, endpointId: string | null | undefined) {
    if (typeof endpointId === 'string' && !(await endpointInWorkspace(tx, workspaceId, endpointId)))
      throw new EndpointNotInWorkspaceError(endpointId);
  }

  function refuseIfAny(problems: SystemProblem[], body: object) {
    if (problems.length > 0) throw new DataSystemRefusedError(problems, shownBody(body));
  }

  /** The stored form of a new system's fields; refusals collected. `read`: its dataset as read. */
  function newRow(input: CreateDataSystemInput, at: string, read: DatasetRead | undefined): DataSystemRow {
    const problems: SystemProblem[] = [];
    const settled = settleCreate(input, connectors.allowedHosts, problems, read);
    refuseIfAny(problems, input);
    return {
      id: newId('sys'),
      workspace_id: input.workspace_id,
      key: input.key,
      name: input.name,
      kind: settled.kind,
      categories: JSON.stringify(unique(settled.categories)),
      request_types: JSON.stringify(unique(settled.request_types)),
      endpoint_id: input.endpoint_id ?? null,
      due_days: input.due_days ?? null,
      connection_ciphertext: input.connection ? sealConnection(secretBox, input.connection) : null,
      dataset: settled.checked ? JSON.stringify(settled.checked.source) : null,
      fides_key: settled.checked?.dataset.fides_key ?? null,
      purposes: null,
      recipients: null,
      retention: null,
      source: null,
      ...processingColumns(input),
      third_party: input.third_party === true ? 1 : 0,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    };
  }

  /** The fields an update sets; a database system's connection and dataset are checked again. */
  function changedFields(found: DataSystemRow, input: UpdateDataSystemInput, at: string, read: DatasetRead | undefined) {
    const problems: SystemProblem[] = [];
    const database = isDatabaseKind(found.kind);
    if (!database && (input.connection !== undefined || input.dataset !== undefined || input.dataset_key !== undefined))
      problems.push({
        loc: ['body', input.connection !== undefined ? 'connection' : input.dataset !== undefined ? 'dataset' : 'dataset_key'],
        msg: `a ${found.kind} system takes no connection or dataset`,
        type: 'value_error',
      });
    if (database && input.endpoint_id !== undefined && input.endpoint_id !== null)
      problems.push({
        loc: ['body', 'endpoint_id'],
        msg: `a ${found.kind} system is run by the service and has no endpoint`,
        type: 'value_error',
      });
    checkDatabaseRequestTypes(found.kind, input.request_types, problems);
    if (database && input.connection)
      checkConnectionField(found.kind as 'postgres', input.connection, connectors.allowedHosts, problems);
    if (database) checkDatasetKeyAlone(input, problems);
    const checked = database && read !== undefined ? checkDatasetField(read, problems) : null;
    refuseIfAny(problems, input);
    return {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.categories !== undefined ? { categories: JSON.stringify(unique(input.categories)) } : {}),
      ...(input.request_types !== undefined ? { request_types: JSON.stringify(unique(input.request_types)) } : {}),
      ...(input.endpoint_id !== undefined && !database
        ? { endpoint_id: input.endpoint_id, kind: input.endpoint_id === null ? ('manual' as const) : ('webhook' as const) }
        : {}),
      ...(input.due_days !== undefined ? { due_days: input.due_days } : {}),
      ...(input.third_party !== undefined ? { third_party: input.third_party ? 1 : 0 } : {}),
      ...(input.connection ? { connection_ciphertext: sealConnection(secretBox, input.connection) } : {}),
      ...(checked ? { dataset: JSON.stringify(checked.source), fides_key: checked.dataset.fides_key } : {}),
      ...processingColumns(input),
      updated_at: at,
    };
  }

  async function liveSystem(tx: Executor, principal: Principal, id: string): Promise<DataSystemRow> {
    const found = await findSystemById(tx, id);
    if (!found || found.deleted_at !== null || !coversWorkspace(principal, found.workspace_id))
      throw new DataSystemNotFoundError(id);
    return found;
  }

  return {
    /** The names of the workspace's systems by key (deleted ones too): how readable answers name them. */
    namesIn(workspaceId: string): Promise<Map<string, string>> {
      return systemNames(db, workspaceId);
    },

    /**
     * Registers a system. @throws DataSystemRefusedError (kind rules, dataset checks, connection
     * host), SystemKeyTakenError, FidesKeyTakenError, DataSystemLimitError, EndpointNotInWorkspaceError.
     */
    async create(input: CreateDataSystemInput, actor: ActorRef): Promise<DataSystemResource> {
      const takesDataset = input.kind !== undefined && isDatabaseKind(input.kind) && input.dataset !== undefined;
      const row = newRow(
        input,
        toTimestamp(clock()),
        takesDataset ? await readDatasetYielding(input.dataset, input.dataset_key) : undefined,
      );
      return runUnitOfWork(db, async (unit) => {
        await checkEndpoint(unit.tx, row.workspace_id, row.endpoint_id);
        if ((await countLiveSystems(unit.tx, row.workspace_id)) >= connectors.maxDataSystemsPerWorkspace)
          throw new DataSystemLimitError(connectors.maxDataSystemsPerWorkspace);
        if (row.fides_key !== null && (await fidesKeyTaken(unit.tx, row.workspace_id, row.fides_key, null)))
          throw new FidesKeyTakenError(row.fides_key);
        if (!(await insertSystemUnlessTaken(unit.tx, row))) {
          // A concurrent registration may have taken the fides_key between the check and the insert.
          if (row.fides_key !== null && (await fidesKeyTaken(unit.tx, row.workspace_id, row.fides_key, null)))
            throw new FidesKeyTakenError(row.fides_key);
          throw new SystemKeyTakenError(row.key);
        }
        const resource = toSystemResource(row);
        recordAudit(unit, {
          ...actorFields(actor),
          action: 'data_system.created',
          targetType: 'data_system',
          targetId: row.id,
          workspaceId: row.workspace_id,
          details: {
            key: row.key,
            kind: row.kind,
            categories: resource.categories,
            request_types: resource.request_types,
            endpoint_id: row.endpoint_id,
            third_party: resource.third_party,
            ...(row.fides_key ? { fides_key: row.fides_key } : {}),
          },
          occurredAt: row.created_at,
        });
        return resource;
      });
    },

    /** The live systems of the workspaces (`'*'`: all), by workspace then key. */
    async list(workspaces: readonly string[] | '*'): Promise<DataSystemResource[]> {
      return (await listLiveSystems(db, workspaces)).map(toSystemResource);
    },

    /** One live system the reader may see. @throws DataSystemNotFoundError. */
    async get(reader: Principal, id: string): Promise<DataSystemResource> {
      return toSystemResource(await liveSystem(db, reader, id));
    },

    /**
     * Changes a live system (its key, workspace and kind never change); a new connection or dataset
     * is checked as at registration. @throws DataSystemNotFoundError, DataSystemRefusedError,
     * FidesKeyTakenError, EndpointNotInWorkspaceError.
     */
    async update(principal: Principal, id: string, input: UpdateDataSystemInput): Promise<DataSystemResource> {
      const at = toTimestamp(clock());
      // Read before the unit: reading a large dataset takes turns of the event loop, not a transaction's time.
      const read = input.dataset === undefined ? undefined : await readDatasetYielding(input.dataset, input.dataset_key);
      return runUnitOfWork(db, async (unit) => {
        const found = await liveSystem(unit.tx, principal, id);
        const fields = changedFields(found, input, at, read);
        await checkEndpoint(unit.tx, found.workspace_id, input.endpoint_id);
        if (fields.fides_key && (await fidesKeyTaken(unit.tx, found.workspace_id, fields.fides_key, id)))
          throw new FidesKeyTakenError(fields.fides_key);
        const updated = await updateSystem(unit.tx, id, fields);
        if (!updated) throw new DataSystemNotFoundError(id);
        recordAudit(unit, {
          ...actorFields(principal),
          action: 'data_system.updated',
          targetType: 'data_system',
          targetId: id,
          workspaceId: found.workspace_id,
          details: { key: found.key, fields: Object.keys(input).sort() },
          occurredAt: at,
        });
        return toSystemResource(updated);
      });
    },

    /** Deletes a live system (soft; its `fides_key` is freed). @throws DataSystemNotFoundError. */
    async remove(principal: Principal, id: string): Promise<void> {
      const at = toTimestamp(clock());
      await runUnitOfWork(db, async (unit) => {
        const found = await liveSystem(unit.tx, principal, id);
        await updateSystem(unit.tx, id, { deleted_at: at, updated_at: at, fides_key: null });
        recordAudit(unit, {
          ...actorFields(principal),
          action: 'data_system.deleted',
          targetType: 'data_system',
          targetId: id,
          workspaceId: found.workspace_id,
          details: { key: found.key },
          occurredAt: at,
        });
      });
    },
  };
}

export type DataSystemService = ReturnType<typeof createDataSystemService>;
