/**
 * The demo's Global Privacy Control step (PRODUCT §2.18, docs/opt-outs.md): a visitor whose
 * browser sends `Sec-GPC: 1` uses the privacy center's opt-out form (no token, no code) to limit
 * the use of their sensitive data. The signal itself also records a "do not sell or share"
 * opt-out with `source: "gpc"` (11 CCR §7025), and the answered page shows it honoured ("Opt-Out
 * Request Honored", §7025(c)(6)); the subject's preferences, read over the API, say so, and
 * `/.well-known/gpc.json` declares the support. Runs after the center is on (privacy-center.ts).
 */
import { type Answer, DemoFailure } from './http.js';
import { line } from './print.js';

/** The API client of demo.ts (bearer token). */
type Api = (method: string, path: string, body?: unknown) => Promise<Answer>;

/** The notice a page fetched with `Sec-GPC: 1` shows (11 CCR §7025(c)(6)). */
const HONORED = 'Opt-Out Request Honored';

/**
 * Runs the step against the demo's service at `baseUrl` in `workspace` for the visitor `email`.
 * @throws DemoFailure when the page, the preferences or the well-known resource is not what
 * PRODUCT §2.18 promises.
 */
export async function gpcOptOutStep(api: Api, baseUrl: string, workspace: string, email: string): Promise<void> {
  const form = `${baseUrl}/privacy-center/${workspace}/opt-outs`;
  const res = await fetch(form, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-gpc': '1' },
    body: new URLSearchParams({ email, kinds: 'sensitive_use' }).toString(),
  });
  const page = await res.text();
  if (res.status !== 202) throw new DemoFailure(`POST ${new URL(form).pathname} answered ${res.status}: ${page.slice(0, 300)}`);
  if (!page.includes(HONORED))
    throw new DemoFailure(`the opt-out form's answer, sent with Sec-GPC: 1, does not say "${HONORED}"`);
  line(`the browser sends Sec-GPC: 1; ${email} asks the center's form to limit the use of sensitive data (no code)`);
  line(`the answered page (HTTP ${res.status}) says "${HONORED}" (11 CCR §7025(c)(6))`);

  const query = new URLSearchParams({ workspace_id: workspace, subject_provider: 'email', subject_id: email.toLowerCase() });
  const { body: prefs } = await api('GET', `/api/v1/privacy/preferences?${query}`);
  const sale = prefs.sale_sharing as { choice: string; source: string | null; updated_at: string | null };
  const limit = prefs.sensitive_use as { choice: string; source: string | null };
  if (sale.choice !== 'opt_out' || sale.source !== 'gpc')
    throw new DemoFailure(`the sale_sharing preference reads ${JSON.stringify(sale)}, expected opt_out from gpc`);
  if (limit.choice !== 'opt_out' || limit.source !== 'form')
    throw new DemoFailure(`the sensitive_use preference reads ${JSON.stringify(limit)}, expected opt_out from the form`);
  line(
    `preferences: sale_sharing ${sale.choice} (source ${sale.source}, from the signal alone), sensitive_use ${limit.choice} (source ${limit.source})`,
  );

  const { body: optOuts } = await api('GET', `/api/v1/privacy/opt-outs?${query}`);
  for (const o of optOuts.items as { id: string; kind: string; source: string; status: string; due_at: string }[])
    line(`opt-out ${o.id}: ${o.kind}, source ${o.source}, ${o.status} (passed on by ${o.due_at})`);

  const known = await fetch(`${baseUrl}/.well-known/gpc.json`);
  const declared = (await known.json()) as { gpc?: unknown; lastUpdate?: unknown };
  if (known.status !== 200 || declared.gpc !== true)
    throw new DemoFailure(`/.well-known/gpc.json answered ${known.status}: ${JSON.stringify(declared)}`);
  line(`/.well-known/gpc.json: ${JSON.stringify(declared)}`);
}
