/** The quality (0–1) an `Accept` header gives `type`: its most specific matching range wins (RFC 9110 §12.5.1). */
export function acceptQuality(accept: string, type: string): number {
  const [main] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const range of accept.split(',')) {
    const [mediaRange = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const specificity = mediaRange === type ? 2 : mediaRange === `${main}/*` ? 1 : mediaRange === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { specificity, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 };
  }
  return best.q;
}

/**
 * Whether a package is to be answered as the readable HTML letter (PRODUCT §2.11): `format`
 * decides when given (`html` or `json`); otherwise `Accept` does, HTML only when it prefers
 * `text/html` to `application/json` (a browser does; `*\/*` or no header keeps JSON, the default).
 */
export function wantsHtml(format: string | undefined, accept: string | undefined): boolean {
  if (format !== undefined) return format === 'html';
  if (!accept) return false;
  const html = acceptQuality(accept, 'text/html');
  return html > 0 && html > acceptQuality(accept, 'application/json');
}
