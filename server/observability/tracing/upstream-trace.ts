import { defaultTextMapSetter, trace } from '@opentelemetry/api';
import { ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from '@opentelemetry/semantic-conventions';
import { w3cTraceContext } from './w3c-trace-context.js';
import { currentTraceScope } from './trace-scope.js';

// What the shared upstream client asks of tracing, apart from attempt-span.ts: that file reads the provider
// definitions, which import the upstream client, so the client must not import it.

/**
 * The W3C `traceparent` (and `tracestate`) of the current attempt's span, for the upstream request to
 * `origin`, which is recorded as the span's `server.address` and `server.port`. Undefined outside an
 * attempt. Added after any request signing: SigV4 signs only the headers it was given, so these go
 * unsigned, as the AWS SDKs send their own trace header.
 */
export function upstreamTraceHeaders(origin: string): Record<string, string> | undefined {
  const scope = currentTraceScope();
  const span = scope?.attempt;
  if (!span) return undefined;
  const url = new URL(origin);
  span.setAttributes({ [ATTR_SERVER_ADDRESS]: url.hostname, [ATTR_SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) });
  const headers: Record<string, string> = {};
  w3cTraceContext.inject(trace.setSpan(scope.request.context, span), headers, defaultTextMapSetter);
  return headers;
}

/** Records the status of the current attempt's upstream answer. */
export function noteUpstreamStatus(status: number): void {
  currentTraceScope()?.attempt?.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
}
