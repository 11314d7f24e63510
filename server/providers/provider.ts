import type { ProviderType } from '../config/config-schema.js';
import type { ImageEditRequest, ImageGenerationRequest, ImageResult, ImageStreamEvent } from '../core/image-types.js';
import type { EmbeddingRequest, EmbeddingResult } from '../core/embedding-types.js';
import type { ModelRequest, StreamEvent, Usage } from '../core/internal-representation.js';
import type { WireProtocol } from '../core/wire-protocol.js';
import type { ImageUrlRewriter } from '../outbound/image-inliner.js';
import type { UpstreamBatchApi } from './upstream-batch-api.js';

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
  /**
   * How the provider forwards a client's body untouched but for the model, the auth and its quirks, per
   * protocol it speaks upstream: used when the client speaks that protocol too (core/model-call.ts).
   */
  readonly passThroughs?: Partial<Record<WireProtocol, PassThrough>>;
  /**
   * The upstream's own count of the request's input tokens, where it has a counting endpoint (Anthropic's
   * `count_tokens`, Gemini's `countTokens`). Without it the gateway estimates (core/count-input-tokens.ts).
   */
  countTokens?(request: ModelRequest, context: CallContext): Promise<number>;
  /** Present on providers that can make images; which models may use it is the models' capabilities. */
  readonly images?: ImageProvider;
  /**
   * Present on providers whose upstream embeds text; which models may use it is the models' capabilities
   * (`embeddings`). Throws a GatewayError with `upstream` set when the upstream refuses, so the router can
   * retry or fall back.
   */
  readonly embeddings?: EmbeddingProvider;
  /** Present on providers whose upstream has a batch API of its own, for models with `batch: upstream`. */
  readonly batches?: UpstreamBatchApi;
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

/** Embeds texts: one vector per input, in order. */
export interface EmbeddingProvider {
  embed(request: EmbeddingRequest, context: CallContext): Promise<EmbeddingResult>;
}

/** Streamed image answers (`stream: true`), with `partialImages` partial images before each final one. */
export interface ImageStreamingProvider {
  generate(request: ImageGenerationRequest, context: CallContext): AsyncIterable<ImageStreamEvent>;
  edit(request: ImageEditRequest, context: CallContext): AsyncIterable<ImageStreamEvent>;
}

/** What a pass-through needs per call beyond the body. */
export interface PassThroughCall extends CallContext {
  /** Whether the client asked for a stream; Gemini says it in the path, the others in the body too. */
  stream: boolean;
  /** Headers of the client's request that go on as they came (Anthropic's `anthropic-beta`). */
  headers?: Record<string, string>;
  /**
   * The client protocol's image-URL rewriter (its definition's `rewriteImageUrls`), for a provider that
   * inlines image URLs (with-inlined-image-urls.ts); none for protocols whose bodies an inlining provider
   * never forwards.
   */
  rewriteImageUrls?: ImageUrlRewriter<Record<string, unknown>>;
}

/**
 * Forwards a client's body in its own protocol with the least rewriting and hands back the upstream's
 * answer as it arrives. Throws (a GatewayError with `upstream` set) before anything is handed back when
 * the upstream refuses, so the router can still retry or fall back.
 */
export interface PassThrough {
  forward(body: Record<string, unknown>, call: PassThroughCall): Promise<Forwarded>;
  /**
   * The protocol's compaction endpoint, where it has one (OpenAI's `POST /responses/compact`): the body
   * goes as it came but for the model, and the upstream's JSON answer comes back whole.
   */
  compact?(body: Record<string, unknown>, call: PassThroughCall): Promise<Extract<Forwarded, { kind: 'json' }>>;
}

export type Forwarded =
  | { kind: 'json'; body: Record<string, unknown>; usage?: Usage }
  | {
      kind: 'stream';
      /** Every frame as the upstream sent it, never re-serialized. */
      frames: AsyncIterable<ForwardedFrame>;
      /** The usage read from the stream so far (complete once `frames` is done). */
      usage(): Usage | undefined;
      /** Characters of generated content sent on since the latest usage report (core/tally-stream.ts). */
      deliveredSinceUsage(): number;
    };

/** One upstream stream frame: its SSE `data:` payload as sent, and its `event:` name where the protocol names events. */
export interface ForwardedFrame {
  data: string;
  event?: string;
  /** The data parsed, where the provider read it whole (Responses lifecycle events and `error`). */
  payload?: Record<string, unknown>;
}
