import type { GatewayMetrics } from './gateway-metrics.js';

/** What the metrics step (observe-requests.ts) keeps in a request's context for its stream's observer (observe-stream.ts). */
export interface RequestMetrics {
  metrics: GatewayMetrics;
  /** process.hrtime.bigint() when the request arrived. */
  startedAt: bigint;
}
