import type { ErrorItem, Loc } from './error-item.js';
import type { AfterCheck, ModelCheck } from './named-checks.js';

/**
 * The subset of JSON Schema (as TypeBox writes it) that the validator understands:
 * objects with properties (`additionalProperties: false` forbids other keys), strings with
 * lengths/pattern/enum, integers with bounds, booleans, arrays with item counts and
 * `uniqueItems`, records (`additionalProperties` a schema), and `allOf` (checked in order, the
 * first failing part reports).
 */
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  /** No two items equal (Pydantic has no such constraint: an `AfterValidator` raising `list_unique`). */
  uniqueItems?: boolean;
  /** Every part in order; the first that fails reports, the rest are not checked. */
  allOf?: Schema[];
  /**
   * Only the nullable form `[X, {type: 'null'}]` (TypeBox `Union([X, Null()])`): Pydantic's
   * `Optional[X]`, null passes and anything else is checked against X alone (X's errors).
   */
  anyOf?: Schema[];
  default?: unknown;
  /** A secret: never echoed in an error's `input` (replaced by `[redacted]`). */
  writeOnly?: boolean;
  /**
   * A named check run on a string that passed its own constraints (a Pydantic `AfterValidator`
   * raising `ValueError`: `value_error`, "Value error, …"). See `AFTER_CHECKS` (named-checks.ts).
   */
  'x-after'?: AfterCheck;
  /**
   * A named check of an object whose fields all passed (a Pydantic `model_validator(mode="after")`
   * raising errors at a field's `loc`). See `MODEL_CHECKS` (named-checks.ts).
   */
  'x-model-after'?: ModelCheck;
}

/**
 * `strict`: JSON bodies, no coercion (Pydantic `strict=True`).
 * `lax`: query, header and path values, which arrive as strings and are parsed as Pydantic's lax
 * mode parses str input (`"5"` → 5, `"yes"` → true).
 */
export type Mode = 'strict' | 'lax';

/**
 * `validateValue`'s signature (validate-value.ts), which the validators of arrays and objects take to check
 * their items and fields (recursion without an import cycle).
 */
export type ValidateValue = (schema: Schema, value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]) => unknown;
