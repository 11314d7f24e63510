/**
 * Where a streamed answer goes: an SSE writer, or Gemini's streamed JSON array (http/open-stream-sink.ts).
 * Here, below http, because metrics wrap a sink (observability/metrics/observe-stream.ts) and must not
 * import the http layer.
 */
export interface StreamSink {
  readonly isOpen: boolean;
  send(data: unknown, event?: string): Promise<void>;
  end(): void;
}
