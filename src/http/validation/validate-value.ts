import { pydanticError as E, type ErrorItem, type Loc } from './error-item.js';
import { validateArray } from './validate-array.js';
import { validateBoolean, validateInteger } from './validate-integer-boolean.js';
import { validateModel, validateRecord } from './validate-object.js';
import { validateString } from './validate-string.js';
import type { Mode, Schema } from './value-schema.js';

/** An `enum` (a Pydantic `Literal`): one of its values, compared as they are (no coercion). */
function validateLiteral(schema: Schema, value: unknown, loc: Loc, errors: ErrorItem[]): unknown {
  const values = schema.enum ?? [];
  if (!values.includes(value)) errors.push(E.literalError(loc, value, values));
  return value;
}

/** `allOf`: each part in order on the value so far; the first part that fails ends the check (its errors only). */
function validateAllOf(parts: Schema[], value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  let result = value;
  for (const part of parts) {
    const before = errors.length;
    result = validateValue(part, result, loc, mode, errors);
    if (errors.length > before) break;
  }
  return result;
}

/**
 * Validates `value` against `schema` the way Pydantic v2 validates the equivalent model, pushing
 * one {@link ErrorItem} per failure (all of them, in field declaration order) onto `errors`.
 * Unknown object keys are dropped (Pydantic's `extra="ignore"`), or reported as `extra_forbidden`
 * where the schema says `additionalProperties: false` (`extra="forbid"`).
 *
 * @returns the validated value (integers and booleans parsed in `lax` mode, defaults filled,
 *   unknown keys removed); meaningless when errors were pushed.
 */
export function validateValue(schema: Schema, value: unknown, loc: Loc, mode: Mode, errors: ErrorItem[]): unknown {
  if (schema.allOf) return validateAllOf(schema.allOf, value, loc, mode, errors);
  if (schema.anyOf) {
    const other = schema.anyOf.filter((part) => part.type !== 'null');
    if (value === null && other.length < schema.anyOf.length) return null;
    if (other.length === 1) return validateValue(other[0] as Schema, value, loc, mode, errors);
    return value;
  }
  if (schema.enum) return validateLiteral(schema, value, loc, errors);
  switch (schema.type) {
    case 'string':
      return validateString(schema, value, loc, errors);
    case 'integer':
      return validateInteger(schema, value, loc, mode, errors);
    case 'boolean':
      return validateBoolean(value, loc, mode, errors);
    case 'array':
      return validateArray(schema, value, loc, mode, errors, validateValue);
    case 'object':
      return schema.properties
        ? validateModel(schema, value, loc, mode, errors, validateValue)
        : validateRecord(schema, value, loc, mode, errors, validateValue);
    default:
      return value;
  }
}
