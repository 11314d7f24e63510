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
export interface RoutedOperation<Begun, Body = unknown> {
  /** Resolves the model and checks the request against the caller's permissions (404, 403, 400): the model to route. */
  admit(registry: ModelRegistry, access: AccessPolicy): RegisteredModel | Promise<RegisteredModel>;
  /**
   * Starts the operation at one deployment; resolves once the upstream's answer has begun (its first event
   * is in hand) and before anything reached the client, so that a failure until then is retried or falls back.
   */
  attempt(target: RouteTarget, signal: AbortSignal): Promise<Begun>;
  /** The begun answer, in the client's protocol. */
  answer(begun: Begun, target: RouteTarget): StartedAnswer<Body> | Promise<StartedAnswer<Body>>;
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
  onAnswer?<Body>(answer: StartedAnswer<Body>, context: RequestContext): StartedAnswer<Body>;
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
export async function routeCall<Begun, Body>(
  deps: RoutedCallDependencies,
  operation: RoutedOperation<Begun, Body>,
  context: RequestContext,
  access: AccessPolicy,
  signal: AbortSignal,
): Promise<StartedAnswer<Body>> {
  const model = await operation.admit(deps.registry, access);
  const { target, begun } = await deps.router.run(model, async (target) => ({ target, begun: await operation.attempt(target, signal) }), signal, access);
  const answer = await operation.answer(begun, target);
  return deps.router.observer.onAnswer?.(answer, context) ?? answer;
}
