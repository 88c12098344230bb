import { pydanticError as E, type ErrorItem, type Loc } from './error-item.js';
import type { Mode, Schema, ValidateValue } from './value-schema.js';

/**
 * A `type: "array"` value: a list, at most `maxItems` long (else only that error), each item
 * checked with `validate`, then at least `minItems` long and `uniqueItems`, on a list whose
 * items all passed.
 *
 * @returns the list of validated items.
 */
export function validateArray(
  schema: Schema,
  value: unknown,
  loc: Loc,
  mode: Mode,
  errors: ErrorItem[],
  validate: ValidateValue,
): unknown {
  if (!Array.isArray(value)) {
    errors.push(E.listType(loc, value));
    return value;
  }
  // pydantic-core stops at max_length: a list that is too long reports only that, no item errors.
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    errors.push(E.tooLong(loc, value, schema.maxItems, value.length));
    return value;
  }
  const items = schema.items;
  const before = errors.length;
  const result = items ? value.map((item, i) => validate(items, item, [...loc, i], mode, errors)) : value;
  // The length check runs on the validated list: with item errors there is none to count.
  if (errors.length === before && schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push(E.tooShort(loc, value, schema.minItems, value.length));
  }
  // Uniqueness is an AfterValidator in the Pydantic model: it runs only on a list that passed.
  if (errors.length === before && schema.uniqueItems && !allDistinct(value)) errors.push(E.listUnique(loc, value));
  return result;
}

/** True when no two items are equal as JSON values. */
function allDistinct(items: unknown[]): boolean {
  return new Set(items.map((item) => JSON.stringify(item))).size === items.length;
}
