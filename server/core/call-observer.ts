import type { AttemptObserver } from './attempt-observer.js';
import type { AnswerObserver } from './route-call.js';

/**
 * What watches the routed calls (core/route-call.ts) of every operation: each upstream attempt, and the
 * answer that won. Metrics, tracing, the log and metering (the ledger and the limits) implement it and are
 * handed to the router when the app is built, so that core calls them without knowing them (and never
 * imports them).
 */
export interface CallObserver extends AttemptObserver, AnswerObserver {}

/**
 * One observer that tells each of `observers`, in order: attempts start in order, run inside each one's
 * scope (the first outermost), and fail in order; an answer passes through each in turn.
 */
export function combineObservers(observers: readonly CallObserver[]): CallObserver {
  return {
    onAttempt: (start) => {
      const watches = observers.map((observer) => observer.onAttempt?.(start)).filter((watch) => watch !== undefined);
      return {
        run: <T>(attempt: () => Promise<T>) => watches.reduceRight<() => Promise<T>>((inner, watch) => (watch.run ? () => watch.run!(inner) : inner), attempt)(),
        failed: (failure) => {
          for (const watch of watches) watch.failed?.(failure);
        },
      };
    },
    onAnswer: (answer, context) => observers.reduce((observed, observer) => observer.onAnswer?.(observed, context) ?? observed, answer),
  };
}
