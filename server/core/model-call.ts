import type { RequestContext } from './request-context.js';
import type { AccessPolicy, RequestParamNames } from '../access/access-policy.js';
import type { BroughtItem } from '../access/wire-scan/wire-scan.js';
import type { ModelCallProtocol } from './client-protocol.js';
import type { Forwarded, ForwardedFrame } from '../providers/provider.js';
import { droppedParamNames, withoutDroppedParams, type DroppedFeatureFields } from './dropped-params.js';
import { gateCapabilities } from './gate-capabilities.js';
import { assertWithinModelOutput } from './model-output-ceiling.js';
import type { ModelRegistry, RegisteredModel } from './model-registry.js';
import { prefetchFirstEvent } from './prefetch-first-event.js';
import { routeCall, type RoutedCallDependencies, type RoutedOperation } from './route-call.js';
import type { RenderedStream, StartedAnswer } from './started-answer.js';
import type { RouteTarget } from './route-target.js';
import { startTranslatedAnswer, type TranslatedAnswer } from './start-translated-answer.js';
import { tallyStream } from './tally-stream.js';
import type { ModelRequest, ModelResponse, StreamEvent, Usage } from './internal-representation.js';

/**
 * What a client protocol tells the model-call pipeline about one request: how to read it and how the
 * upstream may take it. Counting a request's tokens needs this much (count-tokens-operation.ts); a model
 * call adds how to answer (ModelCall).
 */
export interface ModelCallRequest {
  /** The client protocol's definition (protocols/<name>/index.ts), as the layers below the protocols see it. */
  protocol: ModelCallProtocol;
  /** The model ID the client named. */
  model: string;
  stream: boolean;
  /** The client's body as it came, for the permissions' field-by-field scan. */
  clientBody: unknown;
  /** The body a pass-through forwards (the output cap set), before the features the model lacks come out. */
  body: Record<string, unknown>;
  /** Where each gated feature lives in the body, for errors and `x-gateway-dropped-params`. */
  params: RequestParamNames & { stream: string };
  /** The body fields each dropped feature takes with it. */
  droppedFields: DroppedFeatureFields;
  /**
   * The request in the internal representation: `inspect` to check permissions and gate a pass-through,
   * `translate` for an upstream of another protocol (which may refuse what only its own can take).
   */
  request(mode: 'inspect' | 'translate'): ModelRequest;
  /** Runs once the model is known and before anything is checked: Responses reads its stored history here. */
  prepare?(): Promise<void>;
  /** What the request brings in from the gateway's store, read in `prepare()`: checked like the body. */
  brought?(): BroughtItem[];
  /** Headers of the client's request a pass-through sends on. */
  forwardHeaders?: Record<string, string>;
  /** The body a pass-through to `target` sends, from the body without the dropped features. */
  forwardBody?(body: Record<string, unknown>, target: RouteTarget): Record<string, unknown>;
  /**
   * The body fields a translation for `target` leaves behind beyond the capability gate (named in
   * `x-gateway-dropped-params`); throws for those it may not leave behind.
   */
  untranslated?(target: RouteTarget): string[];
}

/**
 * A request for the model-call pipeline and how to answer it in the protocol's own shapes, typed by its
 * operation's schemas: `Body` the response (`SuccessBody<OperationId>`), `Frame` the stream event. Each
 * client-protocol folder builds one per request (`chat-call.ts`, `messages-call.ts`, ...).
 */
export interface ModelCall<Body, Frame> extends ModelCallRequest {
  /**
   * Renders an upstream answer of the client's own protocol: usually as it came, through
   * core/upstream-answer.ts, the one place its shape is taken on trust.
   */
  forwarded: AnswerRenderer<Record<string, unknown>, ForwardedFrame, Body, Frame>;
  /** Renders a translated answer in the client's protocol. */
  translated: AnswerRenderer<ModelResponse, StreamEvent, Body, Frame>;
}

/** How a client protocol writes one kind of answer: whole (`Body`), or as a stream of `Frame`s. */
export interface AnswerRenderer<Whole, Item, Body, Frame> {
  /** The JSON body of a whole answer; it may act on it first (store a finished response). */
  json(answer: Whole, target: RouteTarget): Body | Promise<Body>;
  stream(items: AsyncIterable<Item>, target: RouteTarget): RenderedStream<Frame>;
}

type Attempt = { target: RouteTarget; droppedParams: string[] } & ({ forwarded: Forwarded } | { translated: TranslatedAnswer });

/**
 * The one model-call flow of every client protocol, as a routed call (route-call.ts): resolve the model,
 * check the request against the caller's permissions, and route it; per attempt forward the body as it is
 * (the upstream speaks the client's protocol) or translate it through the internal representation;
 * resolve once the upstream's answer has begun (so failures until then are retried or fall back),
 * rendered in the client's protocol.
 *
 * @example
 * const answer = await callModel(deps, chatCall(req.body, access.outputTokenCeiling()), context, access, signal);
 */
export function callModel<Body, Frame>(
  deps: RoutedCallDependencies,
  call: ModelCall<Body, Frame>,
  context: RequestContext,
  access: AccessPolicy,
  signal: AbortSignal,
): Promise<StartedAnswer<Body, Frame>> {
  return routeCall(deps, modelCallOperation(call), context, access, signal);
}

function modelCallOperation<Body, Frame>(call: ModelCall<Body, Frame>): RoutedOperation<Attempt, Body, Frame> {
  return {
    admit: (registry, access) => admitModelCall(registry, call, access),
    attempt: (target, signal) => startAttempt(call, target, signal),
    answer: (attempt) => render(call, attempt),
  };
}

/**
 * The access step of every operation that reaches a model upstream, generating or counting: the model
 * resolved (404, then 403), the stored history read, and the request with its history checked against the
 * caller's permissions. Counting goes through it too, so nothing a generation may not send can be counted.
 *
 * @example
 * const model = await admitModelCall(registry, messagesCall(body, { outputTokenCeiling: access.outputTokenCeiling() }), access);
 */
export async function admitModelCall(registry: ModelRegistry, call: ModelCallRequest, access: AccessPolicy): Promise<RegisteredModel> {
  const model = registry.resolve(call.model, access);
  assertWithinModelOutput(model, call.protocol.outputCap, call.clientBody);
  await call.prepare?.();
  const wire = { scanner: call.protocol.wireScanner, body: call.clientBody, brought: call.brought?.(), headers: call.forwardHeaders };
  access.assertModelRequest(call.request('inspect'), { params: call.params, wire });
  return model;
}

async function startAttempt(call: ModelCallRequest, target: RouteTarget, signal: AbortSignal): Promise<Attempt> {
  const { stream, params } = call;
  const passThrough = target.deployment.provider.passThroughs?.[call.protocol.name];
  if (passThrough) {
    const { dropped } = gateCapabilities(target.model, call.request('inspect'), { stream, params });
    const { body, removed } = withoutDroppedParams(call.droppedFields, call.body, dropped);
    const forwardBody = call.forwardBody ? call.forwardBody(body, target) : body;
    const { rewriteImageUrls } = call.protocol;
    const upstreamCall = {
      upstreamModel: target.deployment.upstreamModel,
      signal,
      stream,
      ...(call.forwardHeaders && { headers: call.forwardHeaders }),
      ...(rewriteImageUrls && { rewriteImageUrls }),
    };
    const forwarded = await passThrough.forward(forwardBody, upstreamCall);
    if (forwarded.kind === 'stream') forwarded.frames = await prefetchFirstEvent(forwarded.frames);
    return { target, droppedParams: removed, forwarded };
  }
  const untranslated = call.untranslated?.(target) ?? [];
  const translated = await startTranslatedAnswer(target, call.request('translate'), { stream, signal, params });
  return { target, droppedParams: [...droppedParamNames(call.droppedFields, call.body, translated.dropped), ...untranslated], translated };
}

function render<Body, Frame>(call: ModelCall<Body, Frame>, attempt: Attempt): StartedAnswer<Body, Frame> | Promise<StartedAnswer<Body, Frame>> {
  const { target, droppedParams } = attempt;
  if ('forwarded' in attempt) {
    const { forwarded } = attempt;
    if (forwarded.kind === 'json') return jsonAnswer(attempt, call.forwarded.json(forwarded.body, target), forwarded.usage);
    const streamed = { usage: forwarded.usage, deliveredSinceUsage: forwarded.deliveredSinceUsage };
    return { target, droppedParams, kind: 'stream', ...call.forwarded.stream(forwarded.frames, target), streamed };
  }
  const { translated } = attempt;
  if (translated.kind === 'collected') return jsonAnswer(attempt, call.translated.json(translated.response, target), translated.response.usage);
  const tallied = tallyStream(translated.events);
  const streamed = { usage: tallied.usage, deliveredSinceUsage: tallied.deliveredSinceUsage };
  return { target, droppedParams, kind: 'stream', ...call.translated.stream(tallied.events, target), streamed };
}

/**
 * A whole answer, rendered (and acted on: a finished response stored) before anything is written. Most
 * renderers answer at once; only one that acts first is waited for (a promise and a turn less per answer).
 */
function jsonAnswer<Body, Frame>({ target, droppedParams }: Pick<Attempt, 'target' | 'droppedParams'>, rendered: Body | Promise<Body>, usage: Usage | undefined): StartedAnswer<Body, Frame> | Promise<StartedAnswer<Body, Frame>> {
  if (rendered instanceof Promise) return rendered.then((body) => jsonAnswer({ target, droppedParams }, body, usage));
  return { target, droppedParams, kind: 'json', body: () => rendered, usage };
}
