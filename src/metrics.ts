import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The service's Prometheus metrics, on a registry of its own (no global state). */
export interface Metrics {
  readonly registry: Registry;
  /** Seconds per HTTP request, by method, route pattern and status code. */
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Privacy requests filed, by type (replays not counted). */
  readonly requestsFiled: Counter<'request_type'>;
}

/** Creates the registry with process metrics (CPU, memory, event-loop lag) and the service's own. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration in seconds, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    requestsFiled: new Counter({
      name: 'privacy_requests_filed_total',
      help: 'Privacy requests filed (idempotent replays not counted), by request type.',
      labelNames: ['request_type'],
      registers: [registry],
    }),
  };
}
