import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { AnswerReader } from '../../core/client-protocol.js';

/** The upstream attempt that served the request, kept open until the answer is over (streams included). */
export interface WinningAttempt {
  span: Span;
  providerName: string;
  upstreamModel: string;
}

/** One traced request: its SERVER span and what the steps after the front door learn for it. */
export interface RequestTrace {
  tracer: Tracer;
  span: Span;
  /** The context whose active span is `span`: the parent of the attempt spans. */
  context: Context;
  captureContent: boolean;
  /** `gen_ai.operation.name`, undefined for model-call operations the conventions have no name for (token counts). */
  operationName: string | undefined;
  winner?: WinningAttempt;
  /** How the request's protocol states finish reasons and generated text (its definition's `answerReader`). */
  answerReader: AnswerReader;
  finishReasons: Set<string>;
  /** Text the answer generated, only gathered when content is captured. */
  outputText: string[];
}

/** What runs inside a traced request's handler; `attempt` inside one upstream attempt. */
export interface TraceScope {
  request: RequestTrace;
  attempt?: Span;
}

/**
 * Carries the trace through the handler's async work to the router and the upstream client, which do not
 * see the request. Nothing enters it when tracing is off, so every reader finds undefined and does nothing.
 */
const scope = new AsyncLocalStorage<TraceScope>();

export function currentTraceScope(): TraceScope | undefined {
  return scope.getStore();
}

export function runInTraceScope<T>(store: TraceScope, run: () => T): T {
  return scope.run(store, run);
}
