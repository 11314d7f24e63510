import type { CallObserver } from '../../core/call-observer.js';
import { traceAnswer } from './answer-span.js';
import { traceAttempt } from './attempt-span.js';

/**
 * Tracing as an observer of the routed calls: each attempt runs in a CLIENT span of its own
 * (attempt-span.ts), and the answer that won is read for its finish reasons and text (answer-span.ts).
 * Outside a traced request both do nothing.
 */
export const traceCalls: CallObserver = {
  onAttempt: ({ target, attempt }) => ({ run: (run) => traceAttempt(target, attempt, run) }),
  onAnswer: traceAnswer,
};
