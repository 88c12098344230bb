/**
 * The body the task-result scenario posts: a system's access result whose `data` is about
 * `bytes` bytes of JSON (issue 23 item 2: results of ~900 KB from many systems per request).
 */

/** The most `data` a posted result may carry here: under the service's `MAX_TASK_DATA_BYTES` and `BODY_LIMIT_BYTES` (1 MiB each by default). */
export const MAX_TASK_RESULT_BYTES = 1024 * 1024 - 4096;

/** The small result the scenario posted before results had a size (`BENCH_TASK_RESULT_BYTES=0`). */
const SMALL_DATA = { 'user.contact.email': ['someone@crm.example'] };

/**
 * `{"outcome":"completed","records":…,"data":{"user.contact":[…]}}` where `data` is
 * `bytes` bytes of JSON (to the byte, from 200 up): contact records of about 200 bytes each, the
 * last one padded. 0 gives the small one-address result of earlier runs.
 * @throws Error when `bytes` is over {@link MAX_TASK_RESULT_BYTES}.
 */
export function taskResultBody(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_TASK_RESULT_BYTES)
    throw new Error(`BENCH_TASK_RESULT_BYTES must be an integer from 0 to ${MAX_TASK_RESULT_BYTES}`);
  if (bytes === 0) return JSON.stringify({ outcome: 'completed', records: { 'user.contact.email': 1 }, data: SMALL_DATA });
  const records: { kind: string; value: string; source: string; updated_at: string }[] = [];
  const size = () => Buffer.byteLength(JSON.stringify({ 'user.contact': records }));
  const record = (i: number) => ({
    kind: i % 3 === 0 ? 'email' : i % 3 === 1 ? 'phone' : 'address',
    value: `contact ${i} of the subject, as the system stores it: ${'x'.repeat(60)}`,
    source: `crm import batch ${i % 17}`,
    updated_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  });
  while (size() < bytes - 400) records.push(record(records.length));
  // Pad the last record's value to the exact size (one more record when the data is too small for any).
  if (records.length === 0) records.push({ kind: 'note', value: '', source: '', updated_at: '' });
  const last = records[records.length - 1]!;
  last.value += 'x'.repeat(Math.max(0, bytes - size()));
  return JSON.stringify({ outcome: 'completed', records: { 'user.contact': records.length }, data: { 'user.contact': records } });
}
