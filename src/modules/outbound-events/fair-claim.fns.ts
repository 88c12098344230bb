/**
 * Which due messages a deliverer claims (issue 23 item 1, PRODUCT §2.8): a bounded number, no
 * endpoint past its concurrency cap, round-robin across workspaces and, within a workspace,
 * across its endpoints, so one tenant's slow or hanging receivers cannot use every slot.
 */

/** An endpoint with due messages, as the claim's first read sees it. */
export interface EndpointCandidates {
  endpoint_id: string;
  workspace_id: string;
  /** The endpoint's run of failures (null: its last attempt succeeded). */
  failing_since: string | null;
  /** When its oldest due message fell due (ISO); turns go oldest first. */
  oldest_due: string;
  /** Its due, unleased messages, oldest first (at most the per-endpoint cap of them). */
  message_ids: string[];
  /** Its messages leased now by any worker (attempts in flight). */
  in_flight: number;
}

/** The caps a pick respects. */
export interface ClaimCaps {
  /** Most messages picked (the deliverer's free slots). */
  limit: number;
  /** Most attempts in flight per endpoint (`OUTBOUND_ENDPOINT_CONCURRENCY`). */
  perEndpoint: number;
}

/**
 * An endpoint whose last attempt failed gets one attempt in flight at a time: a receiver that
 * hangs or fails holds one slot, not `perEndpoint`.
 */
export function endpointCap(failingSince: string | null, perEndpoint: number): number {
  return failingSince === null ? perEndpoint : 1;
}

/**
 * Picks up to `caps.limit` messages: per endpoint at most its cap ({@link endpointCap}) minus its
 * attempts in flight (across every worker), oldest first; across endpoints round-robin, one
 * message per endpoint per round, workspaces taking turns before endpoints do (a workspace with
 * 50 endpoints gets no more turns than one with 1). Turn order: the workspace, then the endpoint,
 * whose oldest message fell due first; ties by id.
 * @returns the message ids picked, in the order they should be attempted.
 */
export function pickFairly(endpoints: EndpointCandidates[], caps: ClaimCaps): string[] {
  const byWorkspace = new Map<string, string[][]>();
  for (const e of [...endpoints].sort(byOldest)) {
    const free = endpointCap(e.failing_since, caps.perEndpoint) - e.in_flight;
    if (free <= 0 || e.message_ids.length === 0) continue;
    const queue = e.message_ids.slice(0, free);
    const queues = byWorkspace.get(e.workspace_id);
    if (queues) queues.push(queue);
    else byWorkspace.set(e.workspace_id, [queue]);
  }
  const workspaces = [...byWorkspace.values()];
  const cursor = workspaces.map(() => 0);
  const picked: string[] = [];
  let any = true;
  while (any && picked.length < caps.limit) {
    any = false;
    for (let w = 0; w < workspaces.length && picked.length < caps.limit; w += 1) {
      const queues = workspaces[w]!;
      // One message from the workspace's next endpoint that still has one.
      for (let tried = 0; tried < queues.length; tried += 1) {
        const next = queues[cursor[w]! % queues.length]!.shift();
        cursor[w] = cursor[w]! + 1;
        if (next !== undefined) {
          picked.push(next);
          any = true;
          break;
        }
      }
    }
  }
  return picked;
}

function byOldest(a: EndpointCandidates, b: EndpointCandidates): number {
  if (a.oldest_due !== b.oldest_due) return a.oldest_due < b.oldest_due ? -1 : 1;
  return a.endpoint_id < b.endpoint_id ? -1 : a.endpoint_id > b.endpoint_id ? 1 : 0;
}
