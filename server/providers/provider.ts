import type { ProviderType } from '../config/config-schema.js';
import type { ImageEditRequest, ImageGenerationRequest, ImageResult, ImageStreamEvent } from '../core/image-types.js';
import type { ModelRequest, StreamEvent, Usage } from '../core/types.js';

/** What a provider needs to know per call beyond the request itself. */
export interface CallContext {
  /** The model name the upstream knows (`upstream_model` in the config). */
  upstreamModel: string;
  /** Aborted when the client goes away or a timeout fires; providers must stop work and release sockets. */
  signal: AbortSignal;
}

/**
 * An upstream that can answer a ModelRequest. Every provider streams; non-streamed answers are the stream
 * collected (see core/collect-stream.ts), so each provider has one code path to get right.
 *
 * `stream()` must throw (a GatewayError with `upstream` set) before yielding anything when the upstream
 * refuses the call, so the router can still retry or fall back.
 */
export interface Provider {
  readonly type: ProviderType;
  /** The provider's `id` in the config. */
  readonly id: string;
  stream(request: ModelRequest, context: CallContext): AsyncIterable<StreamEvent>;
  /** Present on providers that speak Chat Completions upstream: used when the client speaks it too. */
  readonly chatPassThrough?: ChatPassThrough;
  /** Present on providers configured `api: responses`: used when the client speaks the Responses API. */
  readonly responsesPassThrough?: ResponsesPassThrough;
  /** Present on providers that speak Anthropic Messages upstream: used when the client speaks it too. */
  readonly messagesPassThrough?: MessagesPassThrough;
  /** Present on providers that speak Gemini generateContent upstream: used when the client speaks it too. */
  readonly geminiPassThrough?: GeminiPassThrough;
  /**
   * The upstream's own count of the request's input tokens, where it has a counting endpoint (Anthropic's
   * `count_tokens`, Gemini's `countTokens`). Without it the gateway estimates (core/count-input-tokens.ts).
   */
  countTokens?(request: ModelRequest, context: CallContext): Promise<number>;
  /** Present on providers that can make images; which models may use it is the models' capabilities. */
  readonly images?: ImageProvider;
  /** Releases pooled upstream connections (shutdown, tests). */
  close?(): Promise<void>;
}

/**
 * Makes images. Both calls resolve with every image in hand, and throw a GatewayError with `upstream` set
 * when the upstream refuses, so the router can retry or fall back.
 */
export interface ImageProvider {
  generate(request: ImageGenerationRequest, context: CallContext): Promise<ImageResult>;
  edit(request: ImageEditRequest, context: CallContext): Promise<ImageResult>;
  /**
   * Present on providers with partial images to stream (the built-in model draws them, OpenAI streams its
   * own). A streamed request to a provider without it is answered from `generate`/`edit`, each image as
   * one completed event. Like `stream()`, these throw before their first event when the upstream refuses.
   */
  readonly streaming?: ImageStreamingProvider;
}

/** Streamed image answers (`stream: true`), with `partialImages` partial images before each final one. */
export interface ImageStreamingProvider {
  generate(request: ImageGenerationRequest, context: CallContext): AsyncIterable<ImageStreamEvent>;
  edit(request: ImageEditRequest, context: CallContext): AsyncIterable<ImageStreamEvent>;
}

/**
 * Forwards a Chat Completions body with the least rewriting (model name, auth, provider quirks) and hands
 * back the upstream's answer as it arrives.
 */
export interface ChatPassThrough {
  forward(body: Record<string, unknown>, context: CallContext): Promise<ForwardedChat>;
}

export type ForwardedChat =
  | { kind: 'json'; body: Record<string, unknown>; usage?: Usage }
  | {
      kind: 'stream';
      /** Each SSE `data:` payload as the upstream sent it, `[DONE]` included; never re-serialized. */
      frames: AsyncIterable<string>;
      /** The usage read from the stream so far (complete once `frames` is done). */
      usage(): Usage | undefined;
      /** Characters of generated content sent on since the latest usage report (core/tally-stream.ts). */
      deliveredSinceUsage(): number;
    };

/** Forwards a Responses API body to the upstream's own `/responses`, model name and auth rewritten only. */
export interface ResponsesPassThrough {
  forward(body: Record<string, unknown>, context: CallContext): Promise<ForwardedResponses>;
}

export type ForwardedResponses =
  | { kind: 'json'; body: Record<string, unknown> }
  | {
      kind: 'stream';
      events: AsyncIterable<ForwardedResponseEvent>;
      /** Characters of generated content the consumer has sent on so far (counted as core/tally-stream.ts says). */
      deliveredCharacters(): number;
    };

/** One upstream Responses stream event, as the upstream sent it. */
export interface ForwardedResponseEvent {
  type: string;
  /** The `data:` payload, never re-serialized by the provider. */
  data: string;
  /** Parsed only for events that carry the whole response (`response.*` lifecycle) and `error`. */
  payload?: Record<string, unknown>;
}

/**
 * Forwards an Anthropic Messages body with only the model name, the auth and `anthropic-beta` rewritten,
 * and hands back the upstream's answer as it arrives.
 */
export interface MessagesPassThrough {
  forward(body: Record<string, unknown>, context: MessagesCallContext): Promise<ForwardedMessages>;
}

export interface MessagesCallContext extends CallContext {
  /** The client's `anthropic-beta` header, sent on as it came. */
  anthropicBeta?: string;
}

export type ForwardedMessages =
  | { kind: 'json'; body: Record<string, unknown>; usage?: Usage }
  | {
      kind: 'stream';
      /** Every event as the upstream sent it, `message_start` to `message_stop`. */
      events: AsyncIterable<ForwardedMessageEvent>;
      /** The usage read from the stream so far (complete once `events` is done). */
      usage(): Usage | undefined;
      /** Characters of generated content sent on since the latest usage report (core/tally-stream.ts). */
      deliveredSinceUsage(): number;
    };

/** One upstream Messages stream event: its `event:` name and its `data:` payload, never re-serialized. */
export interface ForwardedMessageEvent {
  type: string;
  data: string;
}

/**
 * Forwards a Gemini generateContent body with only the model path and the auth rewritten, to
 * `:streamGenerateContent?alt=sse` when the client streams (in either of Gemini's stream forms) and to
 * `:generateContent` when it does not, and hands back the upstream's answer as it arrives.
 */
export interface GeminiPassThrough {
  forward(body: Record<string, unknown>, options: { stream: boolean }, context: CallContext): Promise<ForwardedGemini>;
}

export type ForwardedGemini =
  | { kind: 'json'; body: Record<string, unknown>; usage?: Usage }
  | {
      kind: 'stream';
      /** Each SSE `data:` payload (one GenerateContentResponse) as the upstream sent it, never re-serialized. */
      frames: AsyncIterable<string>;
      /** The usage read from the stream so far (complete once `frames` is done). */
      usage(): Usage | undefined;
      /** Characters of generated content sent on since the latest usage report (core/tally-stream.ts). */
      deliveredSinceUsage(): number;
    };
