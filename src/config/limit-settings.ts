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

/** Outbound events' limits (PRODUCT §2.8; docs/outbound-events.md, "Delivery"; issue 23 items 1 and 3). */
export interface OutboundLimitsConfig {
  /** `MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE` (default 100, 1–10 000): one more endpoint is a 409 naming the limit. */
  readonly endpointsPerWorkspace: number;
  /** `OUTBOUND_MAX_IN_FLIGHT` (default 256, 1–1 000): delivery attempts one worker process keeps in flight. */
  readonly maxInFlight: number;
  /** `OUTBOUND_ENDPOINT_CONCURRENCY` (default 2, 1–32): attempts in flight per endpoint (1 while it fails). */
  readonly endpointConcurrency: number;
  /** `OUTBOUND_ENDPOINT_BURST` (default 64, 1–256): attempts in flight to an endpoint whose last attempt succeeded within 1 s. */
  readonly endpointBurst: number;
}

/** Reads the outbound limits, adding a sentence per bad variable to `problems`. */
export function readOutboundLimits(env: Env, problems: string[]): OutboundLimitsConfig {
  return {
    endpointsPerWorkspace: readInteger(env, 'MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE', 100, 1, 10_000, problems),
    maxInFlight: readInteger(env, 'OUTBOUND_MAX_IN_FLIGHT', 256, 1, 1000, problems),
    endpointConcurrency: readInteger(env, 'OUTBOUND_ENDPOINT_CONCURRENCY', 2, 1, 32, problems),
    endpointBurst: readInteger(env, 'OUTBOUND_ENDPOINT_BURST', 64, 1, 256, problems),
  };
}

/**
 * `PG_STATEMENT_TIMEOUT_MS` (default 15000, 0–3 600 000; 0: none): PostgreSQL's `statement_timeout`
 * of every pooled session of `serve`, `privacyctl worker` and the CLI (issue 23 item 9); a
 * statement over it is cancelled and the request answered 503. Migrations run without it.
 */
export function readStatementTimeout(env: Env, problems: string[]): number {
  return readInteger(env, 'PG_STATEMENT_TIMEOUT_MS', 15_000, 0, 3_600_000, problems);
}
