/**
 * Rows of the people and code side of the growth seed, as the service itself would have written
 * them: subjects folded from two identity events each (`user.created`, `user.updated`) with one
 * linked GitHub account; change events stored under the author's keyed pseudonym (the default
 * `author_identity: pseudonymous`) with the effective policy's decision; and, for events of the
 * last 7 days (the de-duplication window), the remembered webhook delivery.
 */
import { decide } from '../../src/modules/change-events/change-decision.fns.js';
import { accountPseudonym } from '../../src/lib/keyed-hash.js';
import type { Policy } from '../../src/modules/policies/policy.types.js';
import { type BulkWriter, columns, type Row } from './bulk-insert.js';
import { at, DAY_MS, githubAccountOf, hex, pastId, pick, type SeedPlan } from './seed-plan.js';

const BATCH = 20_000;

/** Which workspace seeded subject `k` belongs to (round robin). */
export function workspaceOfSubject(plan: SeedPlan, k: number): string {
  return plan.workspaces[k % plan.workspaces.length] as string;
}

const SUBJECT_COLUMNS = columns([
  'id',
  'workspace_id',
  'subject_provider',
  'subject_id',
  'state',
  'email',
  'name',
  'username',
  'last_event_at',
  'updated_at',
]);
const IDENTITY_COLUMNS = columns(['subject_ref', 'event_id', 'event_type', 'occurred_at', 'data', 'received_at']);
const LINK_COLUMNS = columns(['workspace_id', 'provider', 'account_id', 'subject_ref', 'login']);

/** Subjects `u<k>` (okta) with their identity events and linked GitHub account. */
export async function seedSubjects(writer: BulkWriter, plan: SeedPlan, random: () => number, now: number): Promise<void> {
  for (let start = 0; start < plan.subjects; start += BATCH) {
    const subjects: Row[] = [];
    const events: Row[] = [];
    const links: Row[] = [];
    for (let k = start; k < Math.min(plan.subjects, start + BATCH); k++) {
      const created = now - (plan.historyDays + 30) * DAY_MS + pick(random, 30 * DAY_MS);
      const updated = created + pick(random, 20 * DAY_MS);
      const id = pastId('sub', created, random);
      const ws = workspaceOfSubject(plan, k);
      const account = githubAccountOf(k);
      const profile = { user_id: `u${k}`, email: `u${k}@example.com`, name: `User ${k}`, username: `u${k}` };
      const linked = [{ provider: 'github', account_id: account, login: `u${k}` }];
      subjects.push([id, ws, 'okta', `u${k}`, 'active', profile.email, profile.name, profile.username, at(updated), at(updated)]);
      events.push([
        id,
        `evt-${k}-1`,
        'user.created',
        at(created),
        JSON.stringify({ ...profile, linked_accounts: linked }),
        at(created),
      ]);
      events.push([
        id,
        `evt-${k}-2`,
        'user.updated',
        at(updated),
        JSON.stringify({ user_id: `u${k}`, name: `User ${k}` }),
        at(updated),
      ]);
      links.push([ws, 'github', account, id, `u${k}`]);
    }
    await writer.insert('subjects', SUBJECT_COLUMNS, subjects);
    await writer.insert('identity_events', IDENTITY_COLUMNS, events);
    await writer.insert('linked_identities', LINK_COLUMNS, links);
  }
}

/** What change events need per workspace: its GitHub integration, effective policy and version. */
export interface WorkspaceSetup {
  integrationId: string;
  policy: Policy;
  version: string;
}

const CHANGE_COLUMNS = columns(
  [
    'id',
    'workspace_id',
    'integration_id',
    'provider',
    'repository',
    'number',
    'action',
    'head_sha',
    'title',
    'author_account_id',
    'author_login',
    'author_pseudonym',
    'decision',
    'policy_version',
    'received_at',
  ],
  ['number'],
);
const DELIVERY_COLUMNS = columns(['integration_id', 'delivery_id', 'received_at', 'expires_at', 'outcome']);

/** The author of a seeded event: a subject of the workspace (80 %), an account the service has no subject for (15 %), none (5 %). */
function author(plan: SeedPlan, wsIndex: number, random: () => number): string | null {
  const roll = random();
  if (roll < 0.05) return null;
  if (roll < 0.2) return String(5_000_000 + pick(random, plan.subjects * 2));
  const perWorkspace = Math.floor(plan.subjects / plan.workspaces.length);
  return githubAccountOf(pick(random, perWorkspace) * plan.workspaces.length + wsIndex);
}

/**
 * `plan.changeEvents` change events, oldest first, over the last `historyDays` (acme's over the
 * last 14, inside its retention), spread over every workspace's repositories.
 */
export async function seedChangeEvents(
  writer: BulkWriter,
  plan: SeedPlan,
  setups: Map<string, WorkspaceSetup>,
  pseudonymKey: string,
  random: () => number,
  now: number,
): Promise<void> {
  const pseudonyms = new Map<string, string>();
  const pseudonymOf = (account: string) => {
    let p = pseudonyms.get(account);
    if (!p) pseudonyms.set(account, (p = accountPseudonym(pseudonymKey, 'github', account)));
    return p;
  };
  const span = plan.historyDays * DAY_MS;
  for (let start = 0; start < plan.changeEvents; start += BATCH) {
    const events: Row[] = [];
    const deliveries: Row[] = [];
    for (let i = start; i < Math.min(plan.changeEvents, start + BATCH); i++) {
      const wsIndex = pick(random, plan.workspaces.length);
      const ws = plan.workspaces[wsIndex] as string;
      const setup = setups.get(ws) as WorkspaceSetup;
      const t = now - span + Math.floor((i / plan.changeEvents) * span);
      const received = ws === 'acme' ? now - 14 * DAY_MS + Math.floor((t - (now - span)) * (14 / plan.historyDays)) : t;
      const account = author(plan, wsIndex, random);
      const pseudonym = account === null ? null : pseudonymOf(account);
      const decision = JSON.stringify(decide(setup.policy, setup.version, pseudonym ? 'author_pseudonymized' : null));
      const id = pastId('chg', received, random);
      const repo = `${ws === 'acme' ? 'acme' : `org-${ws}`}/repo-${pick(random, plan.reposPerWorkspace)}`;
      const number = 1 + pick(random, 5000);
      events.push([
        id,
        ws,
        setup.integrationId,
        'github',
        repo,
        number,
        random() < 0.4 ? 'opened' : 'synchronize',
        hex(random, 40),
        `Change ${number} of ${repo}`,
        null,
        null,
        pseudonym,
        decision,
        setup.version,
        at(received),
      ]);
      if (received > now - 7 * DAY_MS) {
        const outcome = JSON.stringify({ status: 'accepted', event_id: id, decision: JSON.parse(decision) as unknown });
        deliveries.push([setup.integrationId, `seed-${id}`, at(received), at(received + 7 * DAY_MS), outcome]);
      }
    }
    await writer.insert('change_events', CHANGE_COLUMNS, events);
    await writer.insert('webhook_deliveries', DELIVERY_COLUMNS, deliveries);
  }
}
