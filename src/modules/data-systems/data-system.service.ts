import { runUnitOfWork } from '../../db/unit-of-work.js';
import type { Executor } from '../../db/executor.js';
import { type Clock, toTimestamp } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import { type ActorRef, actorFields, recordAudit } from '../audit/audit.repository.js';
import { coversWorkspace, type Principal } from '../principals/principal.js';
import {
  type DataSystemRow,
  endpointInWorkspace,
  findSystemById,
  insertSystemUnlessTaken,
  listLiveSystems,
  systemNames,
  updateSystem,
} from './data-system.repository.js';
import {
  type CreateDataSystemInput,
  type DataSystemResource,
  DataSystemNotFoundError,
  EndpointNotInWorkspaceError,
  SystemKeyTakenError,
  type UpdateDataSystemInput,
} from './data-system.types.js';

/** Maps a stored system to the API resource. */
export function toSystemResource(row: DataSystemRow): DataSystemResource {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    key: row.key,
    name: row.name,
    categories: JSON.parse(row.categories) as string[],
    request_types: JSON.parse(row.request_types) as string[],
    endpoint_id: row.endpoint_id,
    due_days: row.due_days,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Each item once, in first-seen order. */
const unique = (items: readonly string[]) => [...new Set(items)];

/**
 * Data systems (PRODUCT §2.9): a workspace's downstream systems that receive data tasks. Every
 * change is audited (target `data_system`); a delete is soft (`deleted_at`): the system gets no
 * new tasks, its open tasks stay and can still be answered, and its key stays reserved.
 */
export function createDataSystemService(deps: { db: Executor; clock: Clock }) {
  const { db, clock } = deps;

  async function checkEndpoint(tx: Executor, workspaceId: string, endpointId: string | null | undefined) {
    if (typeof endpointId === 'string' && !(await endpointInWorkspace(tx, workspaceId, endpointId)))
      throw new EndpointNotInWorkspaceError(endpointId);
  }

  return {
    /** The names of the workspace's systems by key (deleted ones too): how readable answers name them. */
    namesIn(workspaceId: string): Promise<Map<string, string>> {
      return systemNames(db, workspaceId);
    },

    /**
     * Registers a system. @throws SystemKeyTakenError (the unique index on workspace and key
     * decides), EndpointNotInWorkspaceError.
     */
    async create(input: CreateDataSystemInput, actor: ActorRef): Promise<DataSystemResource> {
      const at = toTimestamp(clock());
      const row: DataSystemRow = {
        id: newId('sys'),
        workspace_id: input.workspace_id,
        key: input.key,
        name: input.name,
        categories: JSON.stringify(unique(input.categories)),
        request_types: JSON.stringify(unique(input.request_types)),
        endpoint_id: input.endpoint_id ?? null,
        due_days: input.due_days ?? null,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      };
      return runUnitOfWork(db, async (unit) => {
        await checkEndpoint(unit.tx, row.workspace_id, row.endpoint_id);
        if (!(await insertSystemUnlessTaken(unit.tx, row))) throw new SystemKeyTakenError(row.key);
        const resource = toSystemResource(row);
        recordAudit(unit, {
          ...actorFields(actor),
          action: 'data_system.created',
          targetType: 'data_system',
          targetId: row.id,
          workspaceId: row.workspace_id,
          details: {
            key: row.key,
            categories: resource.categories,
            request_types: resource.request_types,
            endpoint_id: row.endpoint_id,
          },
          occurredAt: at,
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
      const row = await findSystemById(db, id);
      if (!row || row.deleted_at !== null || !coversWorkspace(reader, row.workspace_id)) throw new DataSystemNotFoundError(id);
      return toSystemResource(row);
    },

    /** Changes a live system (its key and workspace never change). @throws DataSystemNotFoundError, EndpointNotInWorkspaceError. */
    async update(principal: Principal, id: string, input: UpdateDataSystemInput): Promise<DataSystemResource> {
      const at = toTimestamp(clock());
      return runUnitOfWork(db, async (unit) => {
        const found = await findSystemById(unit.tx, id);
        if (!found || found.deleted_at !== null || !coversWorkspace(principal, found.workspace_id))
          throw new DataSystemNotFoundError(id);
        await checkEndpoint(unit.tx, found.workspace_id, input.endpoint_id);
        const fields = {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.categories !== undefined ? { categories: JSON.stringify(unique(input.categories)) } : {}),
          ...(input.request_types !== undefined ? { request_types: JSON.stringify(unique(input.request_types)) } : {}),
          ...(input.endpoint_id !== undefined ? { endpoint_id: input.endpoint_id } : {}),
          ...(input.due_days !== undefined ? { due_days: input.due_days } : {}),
          updated_at: at,
        };
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

    /** Deletes a live system (soft). @throws DataSystemNotFoundError. */
    async remove(principal: Principal, id: string): Promise<void> {
      const at = toTimestamp(clock());
      await runUnitOfWork(db, async (unit) => {
        const found = await findSystemById(unit.tx, id);
        if (!found || found.deleted_at !== null || !coversWorkspace(principal, found.workspace_id))
          throw new DataSystemNotFoundError(id);
        await updateSystem(unit.tx, id, { deleted_at: at, updated_at: at });
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
