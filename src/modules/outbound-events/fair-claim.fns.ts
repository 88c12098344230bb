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
  /** How many of its messages are due and unleased (counted up to the highest cap). */
  due: number;
  /** Its messages leased now by any worker (attempts in flight). */
  in_flight: number;
}

/** The caps a pick respects. */
export interface ClaimCaps {
  /** Most messages picked (the deliverer's free slots). */
  limit: number;
  /** Most attempts in flight per endpoint (`OUTBOUND_ENDPOINT_CONCURRENCY`). */
  perEndpoint: number;
  /**
   * The cap of one endpoint when the deliverer knows better than {@link endpointCap} (an endpoint
   * that just answered fast may burst, see jobs/outbound-delivery-loop.ts); default endpointCap.
   */
  capOf?: (endpointId: string, failingSince: string | null) => number;
}

/**
 * An endpoint whose last attempt failed gets one attempt in flight at a time: a receiver that
 * hangs or fails holds one slot, not `perEndpoint`.
 */
export function endpointCap(failingSince: string | null, perEndpoint: number): number {
  return failingSince === null ? perEndpoint : 1;
}

/**
 * Shares up to `caps.limit` messages among endpoints: per endpoint at most its cap
 * ({@link endpointCap}) minus its attempts in flight (across every worker), and no more than it
 * has due; across endpoints round-robin, one message per endpoint per round, workspaces taking
 * turns before endpoints do (a workspace with 50 endpoints gets no more turns than one with 1).
 * Turn order: the workspace, then the endpoint, whose oldest message fell due first; ties by id.
 * @returns how many messages to claim per endpoint id (its oldest due ones), endpoints in turn order.
 */
export function pickFairly(endpoints: EndpointCandidates[], caps: ClaimCaps): Map<string, number> {
  const byWorkspace = new Map<string, { id: string; left: number }[]>();
  for (const e of [...endpoints].sort(byOldest)) {
    const cap = caps.capOf ? caps.capOf(e.endpoint_id, e.failing_since) : endpointCap(e.failing_since, caps.perEndpoint);
    const free = cap - e.in_flight;
    if (free <= 0 || e.due <= 0) continue;
    const queue = { id: e.endpoint_id, left: Math.min(free, e.due) };
    const queues = byWorkspace.get(e.workspace_id);
    if (queues) queues.push(queue);
    else byWorkspace.set(e.workspace_id, [queue]);
  }
  const workspaces = [...byWorkspace.values()];
  const cursor = workspaces.map(() => 0);
  const picked = new Map<string, number>();
  let total = 0;
  let any = true;
  while (any && total < caps.limit) {
    any = false;
    for (let w = 0; w < workspaces.length && total < caps.limit; w += 1) {
      const queues = workspaces[w]!;
      // One message from the workspace's next endpoint that still has one.
      for (let tried = 0; tried < queues.length; tried += 1) {
        const queue = queues[cursor[w]! % queues.length]!;
        cursor[w] = cursor[w]! + 1;
        if (queue.left > 0) {
          queue.left -= 1;
          picked.set(queue.id, (picked.get(queue.id) ?? 0) + 1);
          total += 1;
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
