import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * Reads the caller's `traceparent` (request-span.ts) and writes ours to the upstream (upstream-trace.ts).
 * A file of its own: the upstream client loads upstream-trace.ts, so it must not load the request span's
 * module, which reads the request context.
 */
export const w3cTraceContext = new W3CTraceContextPropagator();
