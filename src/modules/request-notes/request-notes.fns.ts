import { createHash } from 'node:crypto';

/** SHA-256 of a note's text (UTF-8), hex: what its audit entry holds instead of the text. */
export function noteHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
