import { type Env, readInteger } from './env-readers.js';

/** How much data systems may report through task results (PRODUCT §2.9; docs/operations.md, "Limits"). Bytes of JSON. */
export interface TaskDataLimitsConfig {
  /** `MAX_TASK_DATA_BYTES` (default 1 MiB, 1 KiB–64 MiB): one result's `data`; more is a 413. */
  readonly taskDataBytes: number;
  /** `MAX_REQUEST_DATA_BYTES` (default 64 MiB, 1 KiB–1 GiB): the stored results of one request's tasks together; more is a 413. */
  readonly requestDataBytes: number;
}

/** Reads the task data limits, adding a sentence per bad variable to `problems`. */
export function readTaskDataLimits(env: Env, problems: string[]): TaskDataLimitsConfig {
  return {
    taskDataBytes: readInteger(env, 'MAX_TASK_DATA_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024, problems),
    requestDataBytes: readInteger(env, 'MAX_REQUEST_DATA_BYTES', 64 * 1024 * 1024, 1024, 1024 * 1024 * 1024, problems),
  };
}
