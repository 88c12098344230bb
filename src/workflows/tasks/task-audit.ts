import type { DataTaskRow } from '../../modules/data-systems/data-task.repository.js';
import type { TaskResultInput } from '../../modules/data-systems/data-task-result.fns.js';
import { noteHash } from '../../modules/request-notes/request-notes.fns.js';

/**
 * The task's audit entry: outcome, counts and categories, never the data; the note by its
 * SHA-256 (`note_sha256`, as request notes are: the text is shown from the task, and the chain
 * holds no free text a system or officer wrote), and `delivered_separately` when set. Names
 * the task's request, or its opt-out (PRODUCT §2.18).
 */
export function taskAudit(task: DataTaskRow, input: TaskResultInput) {
  return {
    ...(task.opt_out_id === null ? { request_id: task.request_id } : { opt_out_id: task.opt_out_id }),
    system_key: task.system_key,
    from: 'pending',
    to: input.outcome,
    ...(input.records ? { records: input.records } : {}),
    ...(input.erased ? { erased: input.erased } : {}),
    ...(input.kept ? { kept: input.kept.map((k) => k.category) } : {}),
    ...(input.data ? { data_categories: Object.keys(input.data) } : {}),
    ...(input.delivered_separately === true ? { delivered_separately: true } : {}),
    ...(input.note !== undefined ? { note_sha256: noteHash(input.note) } : {}),
    // Identity names only (`email`, `phone_number`), never values: what a not_searchable system needed (PRODUCT §2.17).
    ...(input.searched_by !== undefined ? { searched_by: input.searched_by } : {}),
    ...(input.request_had !== undefined ? { request_had: input.request_had } : {}),
  };
}
