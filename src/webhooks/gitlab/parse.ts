import type { IncomingChangeEvent } from '../../modules/change-events/change-event.types.js';
import { asObject } from '../shared/webhook-body.js';

/**
 * The group paths that may own a project, longest first: `a/b/c` → `a/b/c`, `a/b`, `a`. An
 * integration for a group covers its sub-groups; the most specific one wins. For routing only.
 */
export function gitlabNamespaces(payload: unknown): string[] {
  const path = asObject(asObject(payload)?.project)?.path_with_namespace;
  if (typeof path !== 'string' || path === '') return [];
  const parts = path.toLowerCase().split('/');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/'));
}

/**
 * A `Merge Request Hook` as a change event, or null when the payload lacks what GitLab always
 * sends (object_kind merge_request, project.path_with_namespace, object_attributes.iid/action).
 * The author is `object_attributes.author_id`; its username is known when the event's `user` is
 * the author. Source: GitLab Docs, "Webhook events: merge request events".
 */
export function parseGitlabMergeRequest(payload: unknown): IncomingChangeEvent | null {
  const root = asObject(payload);
  const attrs = asObject(root?.object_attributes);
  const repository = asObject(root?.project)?.path_with_namespace;
  if (root?.object_kind !== 'merge_request' || typeof repository !== 'string' || typeof attrs?.iid !== 'number') return null;
  const action = typeof attrs.action === 'string' ? attrs.action : 'unknown';
  const authorId = attrs.author_id;
  // GitLab user ids are integers: 1.5 or 1e300 is not one of its payloads.
  if (typeof authorId === 'number' && !Number.isSafeInteger(authorId)) return null;
  const user = asObject(root.user);
  const author =
    Number.isSafeInteger(authorId) || typeof authorId === 'string'
      ? {
          account_id: String(authorId),
          login: user && String(user.id) === String(authorId) && typeof user.username === 'string' ? user.username : null,
        }
      : null;
  const lastCommit = asObject(attrs.last_commit);
  return {
    provider: 'gitlab',
    repository,
    number: attrs.iid,
    action,
    head_sha: typeof lastCommit?.id === 'string' ? lastCommit.id : null,
    title: typeof attrs.title === 'string' ? attrs.title : null,
    author,
  };
}
