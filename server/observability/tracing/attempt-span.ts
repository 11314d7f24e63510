import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from '@opentelemetry/semantic-conventions';
import { GatewayError } from '../../core/gateway-error.js';
import type { RouteTarget } from '../../core/route-target.js';
import { genAi } from './gen-ai-attributes.js';
import { providerDefinition } from '../../providers/registry.js';
import { currentTraceScope, runInTraceScope } from './trace-scope.js';

/**
 * Runs one upstream attempt of the router inside a CLIENT span, a child of the request's span: retries
 * and fallbacks each get their own, numbered by `gateway.attempt`. A failed attempt's span ends at once
 * with `error.type` (the upstream's status when it answered, else the gateway's error type); the winning
 * one stays open until the answer is over (request-span.ts), as the upstream streams until then.
 * Outside a traced request this is `run()` and nothing else.
 */
export async function traceAttempt<T>(target: RouteTarget, attemptNumber: number, run: () => Promise<T>): Promise<T> {
  const scope = currentTraceScope();
  if (!scope) return run();
  const { request } = scope;
  const { provider, upstreamModel } = target.deployment;
  const providerName = providerDefinition(provider.type).genAiName;
  const span = request.tracer.startSpan(
    `${request.operationName ?? 'call'} ${upstreamModel}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        ...(request.operationName && { [genAi.operationName]: request.operationName }),
        [genAi.providerName]: providerName,
        [genAi.requestModel]: upstreamModel,
        'gateway.attempt': attemptNumber,
        'gateway.model': target.model.id,
        'gateway.provider_id': provider.id,
      },
    },
    request.context,
  );
  try {
    const value = await runInTraceScope({ request, attempt: span }, run);
    request.winner = { span, providerName, upstreamModel };
    return value;
  } catch (error) {
    const status = error instanceof GatewayError ? error.upstream?.status : undefined;
    if (status !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    span.setAttribute(ATTR_ERROR_TYPE, status !== undefined ? String(status) : error instanceof GatewayError ? error.kind : 'aborted');
    // No message: an upstream's error text may quote the prompt, which is only recorded when captured.
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    throw error;
  }
}
