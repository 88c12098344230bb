/** Readers of single environment variables, shared by the settings groups of src/config.ts. */

/** The environment `loadConfig` reads (normally the process environment; only src/config.ts passes it). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * `name` as an integer from `min` to `max`; `fallback` when unset or empty. A bad value adds
 * "`name` must be an integer from `min` to `max`" to `problems` and yields `fallback`.
 */
export function readInteger(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    problems.push(`${name} must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return value;
}

/**
 * `name` as `true` or `false`; `fallback` when unset or empty. Anything else adds
 * "`name` must be true or false" to `problems` and yields `fallback`.
 */
export function readFlag(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') problems.push(`${name} must be true or false`);
  return raw === 'true' || (raw !== 'false' && fallback);
}
