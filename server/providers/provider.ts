import type { ModelRequest, StreamEvent } from '../core/types.js';

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
 */
export interface Provider {
  readonly type: string;
  stream(request: ModelRequest, context: CallContext): AsyncIterable<StreamEvent>;
}
