// Regenerates console/src/api/openapi.d.ts from the service's OpenAPI document (`npm run console:types`).
import { writeFileSync } from 'node:fs';
import { CONSOLE_TYPES_PATH, consoleTypesSource } from './console-types-source.js';

writeFileSync(CONSOLE_TYPES_PATH, await consoleTypesSource());
