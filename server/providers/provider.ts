import type { ProviderType } from '../config/config-schema.js';
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
  /**
   * The upstream's own count of the request's input tokens, where it has a counting endpoint (Anthropic's
   * `count_tokens`, Gemini's `countTokens`). Without it the gateway estimates (core/count-input-tokens.ts).
   */
  countTokens?(request: ModelRequest, context: CallContext): Promise<number>;
  /** Releases pooled upstream connections (shutdown, tests). */
  close?(): Promise<void>;
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
    };

/** Forwards a Responses API body to the upstream's own `/responses`, model name and auth rewritten only. */
export interface ResponsesPassThrough {
  forward(body: Record<string, unknown>, context: CallContext): Promise<ForwardedResponses>;
}

export type ForwardedResponses =
  | { kind: 'json'; body: Record<string, unknown> }
  | { kind: 'stream'; events: AsyncIterable<ForwardedResponseEvent> };

/** One upstream Responses stream event, as the upstream sent it. */
export interface ForwardedResponseEvent {
  type: string;
  /** The `data:` payload, never re-serialized by the provider. */
  data: string;
  /** Parsed only for events that carry the whole response (`response.*` lifecycle) and `error`. */
  payload?: Record<string, unknown>;
}
