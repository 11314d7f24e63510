import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { RequestHandler } from 'express';
import type { TelemetryConfig } from '../../config/config-schema.js';
import { createRequestTracing } from './request-span.js';

/** What the app wires in when traces are on. */
export interface GatewayTracing {
  /** An `identify` step: opens the SERVER span of every model call, closed when its response is over. */
  traceRequests: RequestHandler;
  /** The step just before the handler: runs it inside the request's trace, for the router and upstream client. */
  continueTrace: RequestHandler;
  /** Sends the spans still queued, then stops exporting (shutdown, after the server has drained). */
  shutdown(): Promise<void>;
}

const defaultServiceName = 'unified-model-api';

/**
 * Starts exporting traces over OTLP/HTTP when an endpoint is configured: the config's `otlp_endpoint`,
 * else the standard `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) or `OTEL_EXPORTER_OTLP_ENDPOINT`
 * (a base URL); the exporter reads its other `OTEL_EXPORTER_OTLP_*` settings (headers, certificates)
 * itself. Without one, or with `OTEL_SDK_DISABLED=true`, it returns undefined and nothing is registered:
 * the hot path then has no tracing step at all.
 *
 * The provider is this gateway's own, not registered globally, so that two gateways in one process (tests)
 * export apart; the spans carry `service.name`.
 */
export function startTracing(config: TelemetryConfig, env: NodeJS.ProcessEnv = process.env): GatewayTracing | undefined {
  const url = tracesUrl(config, env);
  if (!url || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.service_name ?? (env.OTEL_SERVICE_NAME || defaultServiceName) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  const requests = createRequestTracing(provider.getTracer('unified-model-api'), { captureContent: config.capture_content });
  return { ...requests, shutdown: () => provider.shutdown() };
}

/** Where spans go, as the OTLP exporter specification reads the two endpoint variables. */
function tracesUrl(config: TelemetryConfig, env: NodeJS.ProcessEnv): string | undefined {
  const base = config.otlp_endpoint ?? (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? undefined : env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base) return `${base.replace(/\/+$/, '')}/v1/traces`;
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined;
}
