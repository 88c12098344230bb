import type { Executor } from '../../db/executor.js';
import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import { listChangeEventResources } from '../../modules/change-events/change-event-list.js';
import { type ChangeEventDeps, recordChangeEvent } from './record-change-event.js';

/** Change events (PRODUCT.md §2.6), bound: record one from a webhook, list them (a module query). */
export interface ChangeEventService {
  /** {@link recordChangeEvent}. */
  readonly record: Bound<typeof recordChangeEvent>;
  /** {@link listChangeEventResources}. */
  readonly list: Bound<typeof listChangeEventResources>;
}

/** Binds the change events to `deps` (src/services.ts wires them once). */
export function bindChangeEvents(deps: ChangeEventDeps & { db: Executor }): ChangeEventService {
  return { record: bindDeps(recordChangeEvent, deps), list: bindDeps(listChangeEventResources, deps.db) };
}
