import type { AttemptObserver, AttemptStart, AttemptWatch } from './attempt-observer.js';
import type { AnswerObserver } from './route-call.js';
import type { StartedAnswer } from './started-answer.js';
import type { RequestContext } from './request-context.js';

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
 *
 * Every request passes here, so what can be decided once is: only the observers that watch attempts (or
 * answers) are asked, and one alone is handed on as it is, without a wrapper (bench/README.md, issue 35).
 */
export function combineObservers(observers: readonly CallObserver[]): CallObserver {
  const attemptObservers = observers.filter((observer) => observer.onAttempt);
  const answerObservers = observers.filter((observer) => observer.onAnswer);
  return {
    ...(attemptObservers.length > 0 && { onAttempt: attemptObservers.length === 1 ? attemptObservers[0]!.onAttempt! : (start) => combinedWatch(attemptObservers, start) }),
    ...(answerObservers.length > 0 && { onAnswer: answerObservers.length === 1 ? answerObservers[0]!.onAnswer! : answerPassingThrough(answerObservers) }),
  };
}

/** The watches of one attempt as one; the one watch itself when only one observer watches it (none when none does). */
function combinedWatch(observers: readonly CallObserver[], start: AttemptStart): AttemptWatch | undefined {
  let only: AttemptWatch | undefined;
  let watches: AttemptWatch[] | undefined;
  for (const observer of observers) {
    const watch = observer.onAttempt!(start);
    if (!watch) continue;
    if (only === undefined) only = watch;
    else (watches ??= [only]).push(watch);
  }
  if (watches === undefined) return only;
  const all = watches;
  return {
    run: <T>(attempt: () => Promise<T>) => all.reduceRight<() => Promise<T>>((inner, watch) => (watch.run ? () => watch.run!(inner) : inner), attempt)(),
    failed: (failure) => {
      for (const watch of all) watch.failed?.(failure);
    },
  };
}

function answerPassingThrough(observers: readonly CallObserver[]): NonNullable<AnswerObserver['onAnswer']> {
  return <Body, Frame>(answer: StartedAnswer<Body, Frame>, context: RequestContext) => {
    let observed = answer;
    for (const observer of observers) observed = observer.onAnswer!(observed, context);
    return observed;
  };
}
