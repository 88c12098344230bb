import type { DataSystemKind } from '../../db/tables/data-system.table.js';
import type { AllowedHost } from '../../lib/allowed-hosts.js';
import {
  checkConnection,
  type ConnectionSettings,
  type Dataset,
  type DatasetRead,
  datasetSummary,
} from '../connectors/connectors.js';
import { DatasetTooLargeError, type SystemProblem } from './data-system.types.js';
import { OPT_OUT_REQUEST_TYPES } from './data-task.fns.js';

/** Every request type: a database system's default (PRODUCT §2.14). */
export const ALL_REQUEST_TYPES = ['access', 'export', 'correction', 'deletion'];

/**
 * Refuses the opt-out request types on a database system, one item per such entry at its index
 * under `request_types`: a connector reads, corrects and erases rows; it has no "stop selling"
 * or "stop marketing" action to take (docs/connectors.md).
 */
export function checkDatabaseRequestTypes(
  kind: DataSystemKind,
  requestTypes: readonly string[] | undefined,
  problems: SystemProblem[],
): void {
  if (!isDatabaseKind(kind) || requestTypes === undefined) return;
  requestTypes.forEach((type, i) => {
    if ((OPT_OUT_REQUEST_TYPES as readonly string[]).includes(type))
      problems.push({
        loc: ['body', 'request_types', i],
        msg: `a ${kind} system cannot take ${type}: a database connector reads, corrects and erases rows and has no opt-out to apply; name a webhook or manual system for it`,
        type: 'value_error',
      });
  });
}

/** Database kinds: the service runs their tasks itself. */
export const DATABASE_KINDS: readonly DataSystemKind[] = ['postgres', 'mysql'];
export const isDatabaseKind = (kind: DataSystemKind): kind is 'postgres' | 'mysql' => DATABASE_KINDS.includes(kind);

/** The fields of a create or update that decide a system's kind and what it needs. */
export interface KindFields {
  kind?: DataSystemKind;
  categories?: string[];
  request_types?: string[];
  endpoint_id?: string | null;
  connection?: ConnectionSettings;
  dataset?: unknown;
  dataset_key?: string;
}

/** A dataset read and checked, with what to store. */
export interface CheckedDataset {
  dataset: Dataset;
  /** The dataset object to store (a Fides file unwrapped to its one dataset). */
  source: Record<string, unknown>;
}

/** The body as a 422 may echo it: the connection URL never. */
export function shownBody(body: object): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...body };
  if ('connection' in shown) shown.connection = '[redacted]';
  return shown;
}

/**
 * The dataset as read (`readDatasetYielding`, before the unit of work: reading takes turns of
 * the event loop), the body's `dataset_key` having chosen one of a Fides file's datasets;
 * problems are located under `['body', 'dataset']` (a `dataset_key` problem under `['body']`).
 * @throws DatasetTooLargeError past a size bound (PRODUCT §2.17: 413 naming the limit).
 */
export function checkDatasetField(read: DatasetRead, problems: SystemProblem[]): CheckedDataset | null {
  if ('tooLarge' in read && read.tooLarge) throw new DatasetTooLargeError(read.tooLarge);
  if ('problems' in read) {
    for (const p of read.problems)
      problems.push({
        loc: p.root === 'body' ? ['body', ...p.loc] : ['body', 'dataset', ...p.loc],
        msg: p.msg,
        type: 'value_error',
      });
    return null;
  }
  return read;
}

/** `dataset_key` chooses among the datasets of `dataset`: refused without one (PRODUCT §2.17). */
export function checkDatasetKeyAlone(input: KindFields, problems: SystemProblem[]): void {
  if (input.dataset_key !== undefined && input.dataset === undefined)
    problems.push({
      loc: ['body', 'dataset_key'],
      msg: 'dataset_key chooses one of the datasets given in dataset: give dataset too',
      type: 'value_error',
    });
}

/**
 * Checks the connection (its keys, the URL and its parameters for the kind, `sslrootcert`, the
 * host against `CONNECTOR_ALLOWED_HOSTS`), never echoing the URL or the PEM text.
 */
export function checkConnectionField(
  kind: 'postgres' | 'mysql',
  connection: ConnectionSettings,
  allowed: readonly AllowedHost[],
  problems: SystemProblem[],
): void {
  for (const { field, msg } of checkConnection(kind, connection, allowed))
    problems.push({ loc: ['body', 'connection', field], msg, type: 'value_error' });
}

/**
 * The kind of a new system (given, or `webhook` with an endpoint and `manual` without) and the
 * fields it needs (PRODUCT §2.9, §2.14): webhook and manual systems need `categories` and
 * `request_types` and take no connection or dataset; database kinds need `connection` and a
 * `dataset` that passes every check, take no endpoint, and default `categories` to the dataset's
 * `user.*` categories and `request_types` to all four. `read`: the dataset as read (undefined when
 * none was given, or the kind takes none).
 * @returns the settled kind, categories, request types and dataset; `problems` gets every refusal.
 */
export function settleCreate(
  input: KindFields,
  allowed: readonly AllowedHost[],
  problems: SystemProblem[],
  read: DatasetRead | undefined,
) {
  const kind: DataSystemKind = input.kind ?? (typeof input.endpoint_id === 'string' ? 'webhook' : 'manual');
  const refuse = (field: string, msg: string) => problems.push({ loc: ['body', field], msg, type: 'value_error' });
  const missing = (field: string) => problems.push({ loc: ['body', field], msg: 'Field required', type: 'missing' });
  if (!isDatabaseKind(kind)) {
    if (input.categories === undefined) missing('categories');
    if (input.request_types === undefined) missing('request_types');
    if (kind === 'webhook' && typeof input.endpoint_id !== 'string') missing('endpoint_id');
    if (kind === 'manual' && typeof input.endpoint_id === 'string')
      refuse('endpoint_id', 'a manual system has no endpoint (kind webhook has one)');
    if (input.connection !== undefined) refuse('connection', `a ${kind} system takes no connection`);
    if (input.dataset !== undefined) refuse('dataset', `a ${kind} system takes no dataset`);
    if (input.dataset_key !== undefined) refuse('dataset_key', `a ${kind} system takes no dataset`);
    return { kind, categories: input.categories ?? [], request_types: input.request_types ?? [], checked: null };
  }
  if (input.endpoint_id !== undefined) refuse('endpoint_id', `a ${kind} system is run by the service and has no endpoint`);
  checkDatabaseRequestTypes(kind, input.request_types, problems);
  if (input.connection === undefined) missing('connection');
  else checkConnectionField(kind, input.connection, allowed, problems);
  checkDatasetKeyAlone(input, problems);
  const checked = read === undefined ? (missing('dataset'), null) : checkDatasetField(read, problems);
  const categories = input.categories ?? (checked ? datasetSummary(checked.dataset).categories : []);
  if (checked && categories.length === 0)
    refuse('categories', 'the dataset labels no field with a user.* category: name the categories');
  return { kind, categories, request_types: input.request_types ?? ALL_REQUEST_TYPES, checked };
}
