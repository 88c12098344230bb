import { createHmac, randomInt } from 'node:crypto';
import type { Field, MaskingStrategy } from './dataset.types.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `value` cut to the field's `length` (code points), when it declares one. */
function fit(value: string, length: number | null): string {
  if (length === null) return value;
  return [...value].slice(0, length).join('');
}

/** How many characters a rewrite writes before its suffix: `wanted`, within the field's `length` with the suffix kept (at least 1). */
function room(length: number | null, wanted: number, suffix: string): number {
  return length === null ? wanted : Math.max(1, Math.min(wanted, length - [...suffix].length));
}

/**
 * The value an erasure writes into a field that holds `value` (PRODUCT §2.14; Fides masking
 * strategies): `null` (the default; Fides' `null_rewrite`), `string_rewrite` (the configured value,
 * then the `format_preservation` suffix), `random_string_rewrite` (`length` random letters and
 * digits, then the suffix, so an e-mail column stays an address and a unique column stays unique), or `hmac` (hex HMAC-SHA-256 of the value under the workspace's
 * key: deterministic, so a rerun writes the same and joins on the masked value still match).
 * A null value stays null. Strings are cut to the field's `length`, the suffix kept (Fides
 * cuts the suffix too; keeping it keeps a CHECK such as `email LIKE '%@%'` true).
 */
export function maskValue(field: Field, value: unknown, hmacKey: string): unknown {
  if (value === null || value === undefined) return null;
  const strategy: MaskingStrategy = field.masking ?? { strategy: 'null' };
  switch (strategy.strategy) {
    case 'null':
      return null;
    case 'string_rewrite': {
      const suffix = strategy.suffix ?? '';
      return fit(strategy.rewrite_value, room(field.length, [...strategy.rewrite_value].length, suffix)) + suffix;
    }
    case 'random_string_rewrite': {
      const suffix = strategy.suffix ?? '';
      let random = '';
      for (let i = room(field.length, strategy.length, suffix); i > 0; i--) random += ALPHABET[randomInt(ALPHABET.length)];
      return random + suffix;
    }
    case 'hmac':
      return fit(createHmac('sha256', hmacKey).update(String(value)).digest('hex'), field.length);
  }
}
