import type { GatewayMetrics } from './gateway-metrics.js';

/** What the metrics step (observe-requests.ts) keeps in a request's context for its stream's observer (observe-stream.ts). */
export interface RequestMetrics {
  metrics: GatewayMetrics;
  /** process.hrtime.bigint() when the request arrived. */
  startedAt: bigint;
}

declare module '../../core/request-context.js' {
  interface RequestContext {
    /** What the metrics step keeps for the request's stream (observe-requests.ts); none with metrics off. */
    metrics?: RequestMetrics;
  }
}
