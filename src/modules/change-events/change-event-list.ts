import type { Executor } from '../../db/executor.js';
import * as repo from './change-event.repository.js';
import type { ChangeDecision, ChangeEventResource } from './change-event.types.js';

function toResource(row: repo.ChangeEventRow): ChangeEventResource {
  const hasAuthor = row.author_account_id !== null || row.author_pseudonym !== null;
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    provider: row.provider,
    repository: row.repository,
    number: row.number,
    action: row.action,
    head_sha: row.head_sha,
    title: row.title,
    author: hasAuthor ? { account_id: row.author_account_id, login: row.author_login, pseudonym: row.author_pseudonym } : null,
    decision: JSON.parse(row.decision) as ChangeDecision,
    received_at: row.received_at,
  };
}

/** A page of change events (PRODUCT.md §2.6), newest first. `before` is the last id of the previous page. */
export async function listChangeEventResources(
  db: Executor,
  filter: { workspaceId: string; repository?: string; before?: string; limit: number },
): Promise<ChangeEventResource[]> {
  return (await repo.listChangeEvents(db, filter)).map(toResource);
}
