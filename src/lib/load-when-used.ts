import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Loads the CommonJS package `specifier` the first time the returned function is called, not when
 * the module that names it loads. For drivers only some deployments use (mysql2 for MariaDB/MySQL
 * targets, ioredis with `REDIS_URL`, nodemailer with `SMTP_URL`): each is 45–90 modules and
 * ≈ 0.1 s of CPU at every start of the service, the CLI and every test process that does not use it
 * (docs/development.md, "Run things").
 *
 * @returns a function returning the package's `module.exports` (the same object on every call).
 * @throws whatever `require` throws, at the first call (a missing package names itself then).
 */
export function loadWhenUsed<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
