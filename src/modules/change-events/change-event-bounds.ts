import type { IncomingChangeEvent } from './change-event.types.js';

/**
 * What a stored change event may hold (issue 11): every field has a bound, so a hostile but
 * authentic payload can neither fail the insert (PostgreSQL refuses NUL characters, integers past
 * 2^31-1 and strings longer than their column) nor copy megabytes into every access package.
 * The column sizes are those of migration 2026-11-21T0002-webhooks.
 */
export const CHANGE_EVENT_BOUNDS = {
  /** `repository` (`owner/name`, `group/sub/project`), characters. */
  repository: 500,
  /** `number` (PR number, MR iid): an integer from 1 to this (PostgreSQL `integer`). */
  number: 2_147_483_647,
  /** `head_sha`: hex, SHA-1 (40) or SHA-256 (64) digits. */
  headSha: 64,
  /** Author account id and login, characters. */
  author: 300,
  /** `title`, characters: longer titles are kept truncated, ending with {@link TRUNCATION_MARKER}. */
  title: 1_000,
} as const;

/** Ends a title cut to {@link CHANGE_EVENT_BOUNDS}.title characters. */
export const TRUNCATION_MARKER = '…[truncated]';

const HEX = /^[0-9a-fA-F]+$/;

/** Why a string cannot be stored, or null: too long, empty when it must not be, or holding NUL. */
function badText(value: string, max: number): string | null {
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters`;
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  return null;
}

/**
 * Why `event` breaks the bounds of a stored change event (e.g. `number must be an integer from 1
 * to 2147483647`), or null when it can be stored. The title is not judged on length (it is
 * truncated, {@link boundedTitle}), only on NUL characters.
 */
export function changeEventProblem(event: IncomingChangeEvent): string | null {
  const { repository, number, head_sha, title, author } = event;
  const repositoryProblem = badText(repository, CHANGE_EVENT_BOUNDS.repository);
  if (repositoryProblem) return `repository ${repositoryProblem}`;
  if (!Number.isInteger(number) || number < 1 || number > CHANGE_EVENT_BOUNDS.number)
    return `number must be an integer from 1 to ${CHANGE_EVENT_BOUNDS.number}`;
  if (head_sha !== null && (head_sha.length > CHANGE_EVENT_BOUNDS.headSha || !HEX.test(head_sha)))
    return `head sha must be at most ${CHANGE_EVENT_BOUNDS.headSha} hexadecimal digits`;
  if (title !== null && title.includes('\u0000')) return 'title must not contain NUL characters';
  const accountProblem = author ? badText(author.account_id, CHANGE_EVENT_BOUNDS.author) : null;
  if (accountProblem) return `author id ${accountProblem}`;
  const loginProblem = author?.login ? badText(author.login, CHANGE_EVENT_BOUNDS.author) : null;
  if (loginProblem) return `author login ${loginProblem}`;
  return null;
}

/**
 * The title as stored: unchanged up to {@link CHANGE_EVENT_BOUNDS}.title characters, else cut so
 * that with {@link TRUNCATION_MARKER} it is exactly that long (never splitting a surrogate pair).
 */
export function boundedTitle(title: string | null): string | null {
  if (title === null || title.length <= CHANGE_EVENT_BOUNDS.title) return title;
  let end = CHANGE_EVENT_BOUNDS.title - TRUNCATION_MARKER.length;
  const last = title.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return title.slice(0, end) + TRUNCATION_MARKER;
}
