/** The error contract of PRODUCT.md §2.1, as assertions for hostile-input tests. */
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

const ITEM_KEYS = new Set(['type', 'loc', 'msg', 'input', 'ctx']);

/** Asserts one FastAPI/Pydantic-shaped 422 detail item. */
function assertErrorItem(item: unknown, where: string): void {
  assert.ok(typeof item === 'object' && item !== null && !Array.isArray(item), where);
  const record = item as Record<string, unknown>;
  for (const key of Object.keys(record)) assert.ok(ITEM_KEYS.has(key), `${where}: unexpected key ${key}`);
  for (const key of ['type', 'loc', 'msg', 'input']) assert.ok(key in record, `${where}: missing ${key}`);
  assert.equal(typeof record.type, 'string', where);
  assert.equal(typeof record.msg, 'string', where);
  const loc = record.loc as unknown[];
  assert.ok(Array.isArray(loc) && loc.length >= 1, `${where}: loc`);
  // PRODUCT.md §2.1 names query, header and body; FastAPI adds path for path parameters.
  assert.ok(['path', 'query', 'header', 'body'].includes(loc[0] as string), `${where}: loc[0] = ${String(loc[0])}`);
  for (const part of loc) assert.ok(typeof part === 'string' || Number.isInteger(part), `${where}: loc part`);
  if ('ctx' in record) assert.ok(typeof record.ctx === 'object' && record.ctx !== null && !Array.isArray(record.ctx), where);
}

/**
 * Never a 5xx; a 422 is `{"detail": [item…]}` with path, query and header items before body items;
 * every other error is `{"detail": "<sentence>"}`. Returns the status.
 */
export function assertContract(res: LightMyRequestResponse, what = ''): number {
  const where = `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  assert.ok(res.statusCode < 500, where);
  if (res.statusCode < 400) return res.statusCode;
  const body = res.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), ['detail'], where);
  if (res.statusCode === 422) {
    const detail = body.detail as unknown[];
    assert.ok(Array.isArray(detail) && detail.length > 0, where);
    detail.forEach((item) => assertErrorItem(item, where));
    const places = detail.map((item) => ((item as { loc: string[] }).loc[0] === 'body' ? 1 : 0));
    assert.deepEqual(places, [...places].sort(), `${where}: query/header errors come before body errors`);
  } else {
    assert.equal(typeof body.detail, 'string', where);
  }
  return res.statusCode;
}
