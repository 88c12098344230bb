// Links made from what people typed (an intake reference): only web addresses become links.

/** True for an absolute http(s) URL: only those become links (no `javascript:`, `data:` or relative ones). */
export function isWebLink(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && /^https?:\/\//i.test(value.trim());
  } catch {
    return false;
  }
}
