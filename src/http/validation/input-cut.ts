/**
 * The `input` of a 422 item cut to a size (PRODUCT §2.17, "Bounds": a 422's `input` is cut to
 * 1 KiB on the routes that take a dataset, which may be a 1 000 000-character YAML text echoed
 * by every item). Pydantic has no such rule; docs/validation.md lists it among the differences.
 */

/** What ends a cut input. */
export const CUT_MARK = '…';

/** The longest prefix of `text` (whole code points) of at most `maxBytes` UTF-8 bytes. */
function prefixBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/**
 * `value` unchanged when its JSON is at most `maxBytes` UTF-8 bytes; otherwise a string of at
 * most `maxBytes` bytes ending in `…`: a string input's beginning, or the beginning of another
 * value's JSON text.
 */
export function cutInput(value: unknown, maxBytes: number): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return value;
  }
  if (json === undefined || Buffer.byteLength(json) <= maxBytes) return value;
  const text = typeof value === 'string' ? value : json;
  if (Buffer.byteLength(text) <= maxBytes) return text;
  return prefixBytes(text, maxBytes - Buffer.byteLength(CUT_MARK)) + CUT_MARK;
}
