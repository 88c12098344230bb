/**
 * The first of `candidates` (in their order) that `verify` accepts, or null. Every candidate is
 * verified, even after a match: each verification is constant-time, and trying them all keeps
 * the answer's timing from telling which position matched (or how many integrations another
 * workspace has for the namespace). The caller bounds the list (MAX_ROUTING_CANDIDATES).
 */
export async function firstVerified<T>(
  candidates: readonly T[],
  verify: (candidate: T) => boolean | Promise<boolean>,
): Promise<T | null> {
  const results = await Promise.all(candidates.map(verify));
  const index = results.indexOf(true);
  return index === -1 ? null : (candidates[index] ?? null);
}
