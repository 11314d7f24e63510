import type { CallObserver } from '../../core/call-observer.js';
import { traceAnswer } from './answer-span.js';
import { traceAttempt } from './attempt-span.js';
import { currentTraceScope } from './trace-scope.js';

/**
 * Tracing as an observer of the routed calls: each attempt runs in a CLIENT span of its own
 * (attempt-span.ts), and the answer that won is read for its finish reasons and text (answer-span.ts).
 * Outside a traced request both do nothing.
 */
export const traceCalls: CallObserver = {
  // An untraced request's attempts are not watched at all, so that they run without a wrapper.
  onAttempt: ({ target, attempt }) => (currentTraceScope() ? { run: (run) => traceAttempt(target, attempt, run) } : undefined),
  onAnswer: traceAnswer,
};
