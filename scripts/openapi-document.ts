// Writes the service's OpenAPI document (what /openapi.json serves) to the path given, without
// listening: the app is built on an in-memory SQLite database. Used by `npm run lint:openapi`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildOpenApiDocument } from './openapi-build.js';

const out = process.argv[2];
if (!out) throw new Error('usage: openapi-document.ts OUT.json');
const document = await buildOpenApiDocument();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
