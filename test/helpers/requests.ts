/** A valid create body (PRODUCT.md §2.3), with overrides. */
export function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    request_type: 'access',
    scope: ['user'],
    subject_id: '583231',
    subject_provider: 'github',
    workspace_id: 'acme',
    client_request_id: 'crm-ticket-0001',
    intake_ref: 'https://support.example.com/tickets/4821',
    ...overrides,
  };
}

/** A settable clock for deadline and overdue tests. */
export function manualClock(startIso: string) {
  let now = new Date(startIso);
  return {
    clock: () => new Date(now),
    set: (iso: string) => {
      now = new Date(iso);
    },
  };
}
