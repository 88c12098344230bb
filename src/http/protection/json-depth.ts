/**
 * Deepest JSON nesting a body may have. CPython's `json.loads` raises `RecursionError` past
 * about 995 levels (default recursion limit 1000, less the caller's frames), which FastAPI
 * answers 400 "There was an error parsing the body"; 900 stays below that for any FastAPI
 * stack, and keeps deep values from overflowing the JS stack when a 422 echoes them back.
 */
export const MAX_JSON_DEPTH = 900;

/**
 * True when `text` opens more than `max` arrays/objects at once (brackets inside strings do not
 * count). One pass, only for texts longer than `max` (shorter ones cannot nest that deep).
 */
export function jsonNestingExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
