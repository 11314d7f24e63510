import type { AccessPolicy } from '../access/access-policy.js';
import type { GatewayError } from './gateway-error.js';
import type { ModelRegistry, RegisteredModel } from './model-registry.js';
import type { RequestContext } from './request-context.js';
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

/** How a client protocol streams one answer. */
export interface RenderedStream {
  frames: AsyncIterable<StreamFrame>;
  /**
   * The frames that tell a failure once the headers have gone, in the protocol's in-band form. Without it
   * a failure ends the stream, for streams whose frames already carry their failures.
   */
  errorFrames?(error: GatewayError): StreamFrame[];
}

/**
 * An answer that has begun, in the client's protocol, of which the client has seen nothing yet; `Body` is
 * its operation's response schema (`SuccessBody<OperationId>`), so a renderer of the wrong shape fails the type check.
 */
export type StartedAnswer<Body = unknown> = {
  target: RouteTarget;
  /** Request fields left out because the model lacks the capability. */
  droppedParams: string[];
} & (
  | {
      kind: 'json';
      /** The JSON body, made when it is written (an image answer stores its images then). */
      body(): Body | Promise<Body>;
      usage: Usage | undefined;
      /** Images the answer holds, for an image operation. */
      imageCount?: number;
    }
  | (RenderedStream & {
      kind: 'stream';
      /**
       * What a generated stream has reported and sent so far (tally-stream.ts): such a stream is read on
       * for its usage once its client left. Without it (images) it is not.
       */
      streamed?: StreamedSoFar;
      /** What an image stream has made so far (core/tally-image-stream.ts): its final images and the usage of the last. */
      images?: ImagesSoFar;
      /**
       * Told once, when the stream is over (before the response ends): `whole` when its frames ran out,
       * rather than failing or being left. Observers wrap it (the ledger learns whether the answer came whole).
       */
      finished?(whole: boolean): void;
    })
);

/** What an image stream has made so far. */
export interface ImagesSoFar {
  /** The final images sent (or made for a client that left). */
  count(): number;
  /** The usage of the whole request, as the latest final image reported it. */
  usage(): Usage | undefined;
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
