/** How the demo shows what happened: short, human-readable lines. */
import type { AccessPackage } from '../../src/modules/subject-data/package.types.js';
import type { ErasureReport } from '../../src/modules/subject-data/erasure-report.fns.js';

/** A heading. */
export function step(title: string): void {
  console.log(`\n== ${title}`);
}

/** An indented line. */
export function line(text: string): void {
  console.log(`   ${text}`);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A change event's author as stored: full ids, pseudonym, or nobody. */
export function author(event: {
  author: { account_id: string | null; login: string | null; pseudonym: string | null } | null;
}): string {
  const a = event.author;
  if (!a) return 'none stored';
  if (a.account_id) return `${a.login ?? '?'} (GitHub account ${a.account_id})`;
  return `pseudonym ${a.pseudonym?.slice(0, 12)}…`;
}

/** A system's part of a package: a database system's rows counted per table (no values printed), else as sent. */
function systemPart(part: unknown): string {
  const entries = Object.entries((part ?? {}) as Record<string, unknown>);
  if (entries.length > 0 && entries.every(([, rows]) => Array.isArray(rows)))
    return entries.map(([table, rows]) => plural((rows as unknown[]).length, `${table} row`)).join(', ');
  return JSON.stringify(part);
}

/** One line per category of an access package: what it holds, as counts (no values printed). */
export function packageSummary(pkg: AccessPackage): string[] {
  const d = pkg.data;
  const lines: string[] = [];
  const account = d['user.account'];
  if (account)
    lines.push(
      `user.account        ${account.identity ? '1 profile' : 'no profile'}, ${plural(account.linked_accounts.length, 'linked account')}, ` +
        `${plural(account.identity_events.length, 'identity event')}, ${plural(account.privacy_requests.length, 'other request')}`,
    );
  const email = d['user.contact.email'];
  if (email) lines.push(`user.contact.email  ${email.email ? '1 address' : 'none'}, ${email.earlier_values.length} earlier`);
  const name = d['user.name'];
  if (name) lines.push(`user.name           ${name.name ? '1 name' : 'none'}, ${name.earlier_values.length} earlier`);
  const content = d['user.content'];
  if (content) lines.push(`user.content        ${plural(content.change_events.length, 'change event')}`);
  lines.push(`processing stated for: ${Object.keys(pkg.processing).join(', ')} (purposes, recipients, retention, source)`);
  for (const [key, part] of Object.entries(pkg.systems ?? {})) lines.push(`systems.${key}: ${systemPart(part)}`);
  return lines;
}

/** Per category of an erasure report: each kind of record erased (with its count) and kept (with why). */
export function reportLines(report: ErasureReport): string[] {
  const lines: string[] = [];
  for (const [category, c] of Object.entries(report.categories)) {
    if (!c) continue;
    lines.push(`${category}`);
    for (const e of c.erased) lines.push(`  erased ${String(e.count).padStart(2)}  ${e.what}`);
    for (const k of c.kept) lines.push(`  kept       ${k.what}`, `             why: ${k.why}`);
  }
  return lines;
}
