const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** C0 controls (but tab, line feed, carriage return) and DEL: parse errors in HTML text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/**
 * `text` as HTML text or a quoted attribute value: `& < > " '` become character references and
 * control characters (which HTML does not allow in text) U+FFFD, so any string, markup
 * included, shows as the characters it holds (HTML Living Standard §13.1.4 and §13.2.5.80).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c).replace(CONTROLS, '\uFFFD');
}
