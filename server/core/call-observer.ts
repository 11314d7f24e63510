import type { FailureVerdict } from './classify-failure.js';
import type { RequestContext } from './request-context.js';
import type { RouteTarget } from './router.js';
import type { StartedAnswer } from './route-call.js';

/** One upstream attempt as it starts: 1-based `attempt` over the request; `fallback` when it goes to a fallback model. */
export interface AttemptStart {
  target: RouteTarget;
  attempt: number;
  fallback: boolean;
}

/** How one attempt is watched, from its start to its end. */
export interface AttemptWatch {
  /**
   * Runs the attempt inside the observer's scope (tracing runs it inside the attempt's span, the parent of
   * the upstream's); it must resolve or reject as `attempt` does.
   */
  run?<T>(attempt: () => Promise<T>): Promise<T>;
  /** The attempt failed, and the router decided what follows (not told when the client left first). */
  failed?(failure: { error: unknown; verdict: FailureVerdict }): void;
}

/**
 * What watches the routed calls (core/route-call.ts) of every operation: each upstream attempt, and the
 * answer that won. Metrics, tracing, the log and metering (the ledger and the limits) implement it and are
 * handed to the router when the app is built, so that core calls them without knowing them (and never
 * imports them).
 */
export interface CallObserver {
  onAttempt?(start: AttemptStart): AttemptWatch | undefined;
  /**
   * The answer the client is about to get, in its protocol: an observer that reads it returns it wrapped
   * (its body read when written, its frames as they go out, told when the stream is over); one that does
   * not returns it as it is. `context` is the request's, where an observer keeps what it learns of it.
   */
  onAnswer?<Body>(answer: StartedAnswer<Body>, context: RequestContext): StartedAnswer<Body>;
}

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
