import type { AccessPolicy } from '../access/access-policy.js';
import type { GatewayError } from './gateway-error.js';
import type { ModelRegistry, RegisteredModel } from './model-registry.js';
import type { StreamedSoFar } from './streamed-so-far.js';
import type { AttemptObserver } from './attempt-observer.js';
import type { Router } from './router.js';
import type { RouteTarget } from './route-target.js';
import type { StreamFrame } from './stream-frame.js';
import type { Usage } from './internal-representation.js';

/**
 * One operation that reaches an upstream (a generation, an image request, embeddings, a token count), as
 * the routed call needs it: everything else (routing, retries, fallbacks, observing) is the same for all.
 */
export interface RoutedOperation<Begun> {
  /** Resolves the model and checks the request against the caller's permissions (404, 403, 400): the model to route. */
  admit(registry: ModelRegistry, access: AccessPolicy): RegisteredModel | Promise<RegisteredModel>;
  /**
   * Starts the operation at one deployment; resolves once the upstream's answer has begun (its first event
   * is in hand) and before anything reached the client, so that a failure until then is retried or falls back.
   */
  attempt(target: RouteTarget, signal: AbortSignal): Promise<Begun>;
  /** The begun answer, in the client's protocol. */
  answer(begun: Begun, target: RouteTarget): StartedAnswer | Promise<StartedAnswer>;
}

/** How a client protocol streams one answer. */
export interface RenderedStream {
  frames: AsyncIterable<StreamFrame>;
  /**
   * The frames that tell a failure once the headers have gone, in the protocol's in-band form. Without it
   * a failure ends the stream, for streams whose frames already carry their failures.
   */
  errorFrames?(error: GatewayError): StreamFrame[];
}

/** An answer that has begun, in the client's protocol, of which the client has seen nothing yet. */
export type StartedAnswer = {
  target: RouteTarget;
  /** Request fields left out because the model lacks the capability. */
  droppedParams: string[];
} & (
  | {
      kind: 'json';
      /** The JSON body, made when it is written (an image answer stores its images then). */
      body(): unknown | Promise<unknown>;
      usage: Usage | undefined;
      /** Images the answer holds, for an image operation. */
      imageCount?: number;
    }
  | (RenderedStream & {
      kind: 'stream';
      /**
       * What a generated stream has reported and sent so far (tally-stream.ts): such a stream is read on
       * for its usage once its client left. Without it (images: their frames meter themselves) it is not.
       */
      streamed?: StreamedSoFar;
    })
);

/**
 * What watches the answer that won: the routed call passes it through (core/call-observer.ts's
 * CallObserver adds the attempts). Declared here, beside the answer, so that the router need not know it.
 */
export interface AnswerObserver {
  /**
   * The answer the client is about to get, in its protocol: an observer that reads it returns it wrapped
   * (its body read when written, its frames as they go out); one that does not returns it as it is.
   */
  onAnswer?(answer: StartedAnswer): StartedAnswer;
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
 * begun, render it in the client's protocol, and let the router's observers (metrics, tracing) watch the
 * attempts and the answer. The request context's emit step (http/emit-answer.ts) then writes it.
 *
 * @example
 * await context.emit(await routeCall(deps, embeddingsOperation(request, render), access, context.work.signal));
 */
export async function routeCall<Begun>(deps: RoutedCallDependencies, operation: RoutedOperation<Begun>, access: AccessPolicy, signal: AbortSignal): Promise<StartedAnswer> {
  const model = await operation.admit(deps.registry, access);
  const { target, begun } = await deps.router.run(model, async (target) => ({ target, begun: await operation.attempt(target, signal) }), signal, access);
  const answer = await operation.answer(begun, target);
  return deps.router.observer.onAnswer?.(answer) ?? answer;
}
