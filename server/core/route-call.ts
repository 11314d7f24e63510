import type { AccessPolicy } from '../access/access-policy.js';
import type { ModelRegistry, RegisteredModel } from './model-registry.js';
import type { RequestContext } from './request-context.js';
import type { AttemptObserver } from './attempt-observer.js';
import type { Router } from './router.js';
import type { RouteTarget } from './route-target.js';
import type { StartedAnswer } from './started-answer.js';

/**
 * One operation that reaches an upstream (a generation, an image request, embeddings, a token count), as
 * the routed call needs it: everything else (routing, retries, fallbacks, observing) is the same for all.
 */
export interface RoutedOperation<Begun, Body, Frame> {
  /** Resolves the model and checks the request against the caller's permissions (404, 403, 400): the model to route. */
  admit(registry: ModelRegistry, access: AccessPolicy): RegisteredModel | Promise<RegisteredModel>;
  /**
   * Starts the operation at one deployment; resolves once the upstream's answer has begun (its first event
   * is in hand) and before anything reached the client, so that a failure until then is retried or falls back.
   */
  attempt(target: RouteTarget, signal: AbortSignal): Promise<Begun>;
  /**
   * The begun answer, in the client's protocol: `Body` is the operation's response schema
   * (`SuccessBody<OperationId>`), `Frame` its stream event schema (`never` if it does not stream).
   */
  answer(begun: Begun, target: RouteTarget): StartedAnswer<Body, Frame> | Promise<StartedAnswer<Body, Frame>>;
}

/**
 * What watches the answer that won: the routed call passes it through (core/call-observer.ts's
 * CallObserver adds the attempts). Declared here, beside the answer, so that the router need not know it.
 */
export interface AnswerObserver {
  /**
   * The answer the client is about to get, in its protocol: an observer that reads it returns it wrapped
   * (its body read when written, its frames as they go out, told when the stream is over); one that does
   * not returns it as it is. `context` is the request's, where an observer keeps what it learns of it.
   */
  onAnswer?<Body, Frame>(answer: StartedAnswer<Body, Frame>, context: RequestContext): StartedAnswer<Body, Frame>;
}

/** A router whose observer watches answers too. */
export type ObservedRouter = Router<AttemptObserver & AnswerObserver>;

export interface RoutedCallDependencies {
  registry: ModelRegistry;
  router: ObservedRouter;
}

/**
 * The one routed call of every operation that reaches an upstream: admit the request (resolve the model,
 * check access), route it over the model's deployments and fallbacks, attempt each until one answer has
 * begun, render it in the client's protocol, and let the router's observers (metrics, tracing, the log,
 * metering) watch the attempts and the answer; they keep what they learn in the request's `context`.
 * The request context's emit step (http/emit-answer.ts) then writes it.
 *
 * @example
 * await context.emit(await routeCall(deps, embeddingsOperation(request, render), context, access, context.work.signal));
 */
export async function routeCall<Begun, Body, Frame>(
  deps: RoutedCallDependencies,
  operation: RoutedOperation<Begun, Body, Frame>,
  context: RequestContext,
  access: AccessPolicy,
  signal: AbortSignal,
): Promise<StartedAnswer<Body, Frame>> {
  const model = await operation.admit(deps.registry, access);
  // The router says which target answered: no wrapper per attempt to carry it (bench/README.md, issue 35).
  const { target, value: begun } = await deps.router.route(model, (target) => operation.attempt(target, signal), signal, access, context.sessionKey);
  const rendered = operation.answer(begun, target);
  // Most answers are rendered at once: awaiting only those that are not saves a promise and a turn.
  const answer = rendered instanceof Promise ? await rendered : rendered;
  return deps.router.observer.onAnswer?.(answer, context) ?? answer;
}
