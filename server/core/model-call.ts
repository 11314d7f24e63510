import type { RequestContext } from './request-context.js';
import type { AccessPolicy, RequestParamNames } from '../access/access-policy.js';
import type { BroughtItem } from '../access/wire-scan/wire-scan.js';
import type { ModelCallProtocol } from './client-protocol.js';
import type { Forwarded, ForwardedFrame } from '../providers/provider.js';
import { droppedParamNames, withoutDroppedParams, type DroppedFeatureFields } from './dropped-params.js';
import { gateCapabilities } from './gate-capabilities.js';
import type { ModelRegistry, RegisteredModel } from './model-registry.js';
import { prefetchFirstEvent } from './prefetch-first-event.js';
import { routeCall, type RoutedCallDependencies, type RoutedOperation } from './route-call.js';
import type { RenderedStream, StartedAnswer } from './started-answer.js';
import type { RouteTarget } from './route-target.js';
import { startTranslatedAnswer, type TranslatedAnswer } from './start-translated-answer.js';
import { tallyStream } from './tally-stream.js';
import type { ModelRequest, ModelResponse, StreamEvent, Usage } from './internal-representation.js';

/**
 * What a client protocol tells the model-call pipeline about one request: how to read it, how the
 * upstream may take it, and how to answer in the protocol's own shapes. Each client-protocol folder
 * builds one per request (`chat-call.ts`, `messages-call.ts`, ...).
 */
/** A model call whose answer is its operation's response schema, `Body` (`SuccessBody<OperationId>`). */
export interface ModelCall<Body = unknown> {
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
  /** Renders an upstream answer of the client's own protocol: usually as it came. */
  forwarded: AnswerRenderer<Record<string, unknown>, ForwardedFrame, Body>;
  /** Renders a translated answer in the client's protocol. */
  translated: AnswerRenderer<ModelResponse, StreamEvent, Body>;
}

/** How a client protocol writes one kind of answer: whole, or as a stream. */
export interface AnswerRenderer<Whole, Item, Body = unknown> {
  /** The JSON body of a whole answer; it may act on it first (store a finished response). */
  json(answer: Whole, target: RouteTarget): Body;
  stream(items: AsyncIterable<Item>, target: RouteTarget): RenderedStream;
}

/** What a model call needs: the same as every routed call. */
export type ModelCallDependencies = RoutedCallDependencies;

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
export function callModel<Body>(
  deps: ModelCallDependencies,
  call: ModelCall<Body>,
  context: RequestContext,
  access: AccessPolicy,
  signal: AbortSignal,
): Promise<StartedAnswer<Body>> {
  return routeCall(deps, modelCallOperation(call), context, access, signal);
}

function modelCallOperation<Body>(call: ModelCall<Body>): RoutedOperation<Attempt, Body> {
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
export async function admitModelCall(registry: ModelRegistry, call: ModelCall, access: AccessPolicy): Promise<RegisteredModel> {
  const model = registry.resolve(call.model, access);
  await call.prepare?.();
  const wire = { scanner: call.protocol.wireScanner, body: call.clientBody, brought: call.brought?.(), headers: call.forwardHeaders };
  access.assertModelRequest(call.request('inspect'), { params: call.params, wire });
  return model;
}

async function startAttempt(call: ModelCall, target: RouteTarget, signal: AbortSignal): Promise<Attempt> {
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

async function render<Body>(call: ModelCall<Body>, attempt: Attempt): Promise<StartedAnswer<Body>> {
  const { target, droppedParams } = attempt;
  if ('forwarded' in attempt) {
    const { forwarded } = attempt;
    if (forwarded.kind === 'json') return jsonAnswer(attempt, await call.forwarded.json(forwarded.body, target), forwarded.usage);
    const streamed = { usage: forwarded.usage, deliveredSinceUsage: forwarded.deliveredSinceUsage };
    return { target, droppedParams, kind: 'stream', ...call.forwarded.stream(forwarded.frames, target), streamed };
  }
  const { translated } = attempt;
  if (translated.kind === 'collected') return jsonAnswer(attempt, await call.translated.json(translated.response, target), translated.response.usage);
  const tallied = tallyStream(translated.events);
  const streamed = { usage: tallied.usage, deliveredSinceUsage: tallied.deliveredSinceUsage };
  return { target, droppedParams, kind: 'stream', ...call.translated.stream(tallied.events, target), streamed };
}

/** A whole answer, rendered (and acted on: a finished response stored) before anything is written. */
function jsonAnswer<Body>({ target, droppedParams }: Attempt, body: Body, usage: Usage | undefined): StartedAnswer<Body> {
  return { target, droppedParams, kind: 'json', body: () => body, usage };
}
