import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { hrTime } from '@opentelemetry/core';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { RequestHandler, Response } from 'express';
import { contextOf, type RequestContext } from '../../core/request-context.js';
import { inputMessages, outputMessages, systemInstructions } from './answer-content.js';
import { genAi } from './gen-ai-attributes.js';
import { runInTraceScope, type RequestTrace } from './trace-scope.js';
import { w3cTraceContext } from './w3c-trace-context.js';

/**
 * The SERVER span of each model call (operations the spec meters). It continues the caller's W3C
 * `traceparent`, is named `{gen_ai.operation.name} {gen_ai.request.model}` as the GenAI conventions name
 * spans, and ends when the response is over, so a stream's span lasts until its last frame. Only the
 * operation's path template is recorded, never the URL: Gemini clients may put the key in the query.
 */
export function createRequestTracing(tracer: Tracer, options: { captureContent: boolean }) {
  const traceRequests: RequestHandler = (req, res, next) => {
    const context = contextOf(req);
    const { operation: route, protocol } = context;
    if (!route?.metering || !protocol) return next();
    const parent = w3cTraceContext.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    // Token counts are no GenAI operation: their protocols name none for them.
    const operationName = protocol.genAiOperationNames[route.metering.kind];
    const span = tracer.startSpan(
      operationName ?? `${req.method} ${route.path}`,
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method, [ATTR_HTTP_ROUTE]: route.path, ...(operationName && { [genAi.operationName]: operationName }) } },
      parent,
    );
    const requestTrace: RequestTrace = {
      tracer,
      span,
      context: trace.setSpan(parent, span),
      captureContent: options.captureContent,
      operationName,
      answerReader: protocol.answerReader,
      finishReasons: new Set(),
      outputText: [],
    };
    context.trace = requestTrace;
    res.once('close', () => endRequestSpan(requestTrace, context, res));
    next();
  };

  const continueTrace: RequestHandler = (req, _res, next) => {
    const context = contextOf(req);
    const requestTrace = context.trace;
    if (!requestTrace) return next();
    const model = requestedModel(req.body, context);
    if (model !== undefined) {
      requestTrace.span.setAttribute(genAi.requestModel, model);
      if (requestTrace.operationName) requestTrace.span.updateName(`${requestTrace.operationName} ${model}`);
    }
    if (requestTrace.captureContent) {
      const input = inputMessages(req.body);
      if (input !== undefined) requestTrace.span.setAttribute(genAi.inputMessages, input);
      const system = systemInstructions(req.body);
      if (system !== undefined) requestTrace.span.setAttribute(genAi.systemInstructions, system);
    }
    runInTraceScope({ request: requestTrace }, next);
  };

  return { traceRequests, continueTrace };
}

/** The model the client named: the body's `model`, or Gemini's `{model}` path parameter (without `models/`). */
function requestedModel(body: unknown, context: RequestContext): string | undefined {
  if (context.operation?.metering?.modelFrom === 'path') return context.pathParams.model?.replace(/^models\//, '');
  const model = body !== null && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
}

/** Ends the winning attempt's span and the request's, with what the answer reported. */
function endRequestSpan(requestTrace: RequestTrace, context: RequestContext, res: Response): void {
  const { span, winner } = requestTrace;
  // One end time for both: spans keep their own clocks, and the attempt must not seem to outlast its request.
  const endTime = hrTime();
  const usage = context.usage ?? context.streamed?.usage();
  const answered: Attributes = {};
  if (winner) {
    answered[genAi.providerName] = winner.providerName;
    answered[genAi.responseModel] = winner.upstreamModel;
  }
  if (usage) {
    answered[genAi.inputTokens] = usage.inputTokens;
    answered[genAi.outputTokens] = usage.outputTokens;
  }
  if (requestTrace.finishReasons.size > 0) answered[genAi.finishReasons] = [...requestTrace.finishReasons];
  if (requestTrace.captureContent && requestTrace.outputText.length > 0) {
    answered[genAi.outputMessages] = outputMessages(requestTrace.outputText, requestTrace.finishReasons);
  }
  if (winner) {
    winner.span.setAttributes(answered);
    if (!res.writableFinished) winner.span.setAttribute(ATTR_ERROR_TYPE, 'client_closed');
    winner.span.end(endTime);
  }
  span.setAttributes({ ...answered, [ATTR_HTTP_RESPONSE_STATUS_CODE]: res.statusCode, 'gateway.request_id': context.requestId });
  if (context.route) span.setAttribute('gateway.model', context.route.model);
  // A server span is an error for 5xx only (HTTP conventions); a stream cut short is one whatever its status.
  if (res.statusCode >= 500) {
    span.setAttribute(ATTR_ERROR_TYPE, String(res.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  } else if (!res.writableFinished) {
    span.setAttribute(ATTR_ERROR_TYPE, 'client_closed');
  }
  span.end(endTime);
}
