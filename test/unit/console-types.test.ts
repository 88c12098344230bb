/**
 * The console's API types (console/src/api/openapi.d.ts) are generated from the service's own
 * OpenAPI document; this fails when a route schema changed and `npm run console:types` was not run,
 * so the console cannot drift from the API it calls.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { CONSOLE_TYPES_PATH, consoleTypesSource } from '../../scripts/console-types-source.js';

it('console/src/api/openapi.d.ts matches the current OpenAPI document (run npm run console:types)', async () => {
  const committed = readFileSync(CONSOLE_TYPES_PATH, 'utf8');
  assert.ok(committed.includes('"/api/v1/privacy/requests"'));
  assert.equal(committed, await consoleTypesSource());
});
