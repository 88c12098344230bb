import type { DatasetProblem } from './dataset.types.js';

/** A path into the dataset, as a 422's `loc` continues it. */
export type Path = readonly (string | number)[];

/** The longest name a collection, field, schema or identity may have (PostgreSQL's identifier limit). */
export const MAX_NAME = 63;

/**
 * Collects problems while reading a parsed YAML/JSON value: each reader checks one shape, adds a
 * problem naming the path when it is wrong, and returns the value or a fallback.
 */
export class ShapeReader {
  readonly problems: DatasetProblem[] = [];

  problem(loc: Path, msg: string): void {
    this.problems.push({ loc: [...loc], msg });
  }

  /**
   * An object (mapping) with only `allowed` keys; every other key is a problem naming it (with
   * the reason `unsupported` gives for a known Fides feature the service does not take).
   */
  object(
    value: unknown,
    loc: Path,
    allowed: readonly string[],
    unsupported: Readonly<Record<string, string>> = {},
  ): Record<string, unknown> | null {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem(loc, 'Input should be an object');
      return null;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record))
      if (!allowed.includes(key))
        this.problem(
          [...loc, key],
          Object.hasOwn(unsupported, key)
            ? (unsupported[key] as string)
            : `${key} is not supported here (supported: ${allowed.join(', ')})`,
        );
    return record;
  }

  /** A list of at most `max` items (at least `min`). */
  list(value: unknown, loc: Path, min: number, max: number): unknown[] {
    if (!Array.isArray(value)) {
      this.problem(loc, 'Input should be a valid list');
      return [];
    }
    if (value.length < min) this.problem(loc, `List should have at least ${min} item${min === 1 ? '' : 's'}`);
    if (value.length > max) this.problem(loc, `List should have at most ${max} items`);
    return value.slice(0, max);
  }

  /** A string of 1 to `max` code points without NUL (names reach SQL quoted, never bare). */
  name(value: unknown, loc: Path, max = MAX_NAME): string {
    if (typeof value !== 'string') {
      this.problem(loc, 'Input should be a valid string');
      return '';
    }
    const length = [...value].length;
    if (length === 0 || length > max) this.problem(loc, `String should have 1 to ${max} characters`);
    else if ([...value].some((ch) => ch.charCodeAt(0) < 0x20)) this.problem(loc, 'String should not contain control characters');
    return value;
  }

  /** An optional boolean (absent: false). */
  flag(value: unknown, loc: Path): boolean {
    if (value === undefined) return false;
    if (typeof value !== 'boolean') this.problem(loc, 'Input should be a valid boolean');
    return value === true;
  }

  /** An optional integer from `min` to `max` (absent: null). */
  integer(value: unknown, loc: Path, min: number, max: number): number | null {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.problem(loc, `Input should be an integer from ${min} to ${max}`);
      return null;
    }
    return value;
  }

  /** A list of names (may be absent: empty). */
  names(value: unknown, loc: Path, max: number): string[] {
    if (value === undefined || value === null) return [];
    return this.list(value, loc, 0, max).map((item, i) => this.name(item, [...loc, i], 200));
  }
}
