/**
 * Where a streamed answer goes: an SSE writer, or Gemini's streamed JSON array (http/open-stream-sink.ts).
 * Here, below http, because metrics wrap a sink (observability/metrics/observe-stream.ts) and must not
 * import the http layer.
 */
export interface StreamSink {
  readonly isOpen: boolean;
  /** A promise only when the client reads slowly: then the sender waits for it before sending more. */
  send(data: unknown, event?: string): Promise<void> | undefined;
  end(): void;
}
