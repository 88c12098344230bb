import { createHmac, randomInt } from 'node:crypto';
import type { Field, MaskingStrategy } from './dataset.types.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `value` cut to the field's `length` (code points), when it declares one. */
function fit(value: string, length: number | null): string {
  if (length === null) return value;
  return [...value].slice(0, length).join('');
}

/**
 * The value an erasure writes into a field that holds `value` (PRODUCT §2.14; Fides masking
 * strategies): `null` (the default), `string_rewrite` (the configured value), `random_string_rewrite`
 * (`length` random letters and digits, then the suffix, so an e-mail column stays an address and
 * a unique column stays unique), or `hmac` (hex HMAC-SHA-256 of the value under the workspace's
 * key: deterministic, so a rerun writes the same and joins on the masked value still match).
 * A null value stays null. Strings are cut to the field's `length`, the suffix kept.
 */
export function maskValue(field: Field, value: unknown, hmacKey: string): unknown {
  if (value === null || value === undefined) return null;
  const strategy: MaskingStrategy = field.masking ?? { strategy: 'null' };
  switch (strategy.strategy) {
    case 'null':
      return null;
    case 'string_rewrite':
      return fit(strategy.rewrite_value, field.length);
    case 'random_string_rewrite': {
      const suffix = strategy.suffix ?? '';
      const room =
        field.length === null ? strategy.length : Math.max(1, Math.min(strategy.length, field.length - [...suffix].length));
      let random = '';
      for (let i = 0; i < room; i++) random += ALPHABET[randomInt(ALPHABET.length)];
      return random + suffix;
    }
    case 'hmac':
      return fit(createHmac('sha256', hmacKey).update(String(value)).digest('hex'), field.length);
  }
}
