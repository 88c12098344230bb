/** What `POST /api/v1/data-systems` takes (validated by the route's schema). */
export interface CreateDataSystemInput {
  workspace_id: string;
  key: string;
  name: string;
  categories: string[];
  request_types: string[];
  endpoint_id?: string;
  due_days?: number;
}

/** What `PATCH /api/v1/data-systems/{id}` may change; `null` clears `endpoint_id` or `due_days`. */
export interface UpdateDataSystemInput {
  name?: string;
  categories?: string[];
  request_types?: string[];
  endpoint_id?: string | null;
  due_days?: number | null;
}

/** A data system as the API shows it (PRODUCT §2.9). */
export interface DataSystemResource {
  id: string;
  workspace_id: string;
  key: string;
  name: string;
  categories: string[];
  request_types: string[];
  endpoint_id: string | null;
  due_days: number | null;
  created_at: string;
  updated_at: string;
}

/** The workspace already has (or had: deleted keys stay reserved) a system with this key (409). */
export class SystemKeyTakenError extends Error {
  constructor(readonly key: string) {
    super(`data system key taken: ${key}`);
  }
}

/** `endpoint_id` names no webhook endpoint of the system's workspace (422 on `endpoint_id`). */
export class EndpointNotInWorkspaceError extends Error {
  constructor(readonly endpointId: string) {
    super('endpoint_id is not a webhook endpoint of this workspace');
  }
}

/** No such live system, or not in the caller's workspaces (404). */
export class DataSystemNotFoundError extends Error {}
