/**
 * A JSON number written with a fraction or exponent (`5.0`, `1e2`), or `NaN`/`Infinity`: what
 * Python's `json.loads` makes a `float`. `JSON.parse` cannot tell `5.0` from `5`, but Pydantic's
 * strict mode can (`5.0` is not an int), so such numbers are boxed. Serialises as the number.
 */
export class PyFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}
