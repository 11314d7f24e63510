import type { FailureVerdict } from './classify-failure.js';
import type { RouteTarget } from './route-target.js';

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
 * What the router tells of each upstream attempt (call-observer.ts's CallObserver adds the answer). Apart
 * from call-observer.ts because the router holds it, and the answer's type lives above the router.
 */
export interface AttemptObserver {
  onAttempt?(start: AttemptStart): AttemptWatch | undefined;
}
