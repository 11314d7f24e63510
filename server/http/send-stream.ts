import { toGatewayError } from './to-gateway-error.js';
import type { GatewayError } from '../core/gateway-error.js';
import type { StreamFrame } from '../core/stream-frame.js';

/** Where a streamed answer goes: an SSE writer, or Gemini's streamed JSON array. */
export interface StreamSink {
  readonly isOpen: boolean;
  send(data: unknown, event?: string): Promise<void>;
  end(): void;
}


export interface StreamProtocol<Item> {
  /** The frame an item goes out as; it may act on the item first (store a finished response, meter an image). */
  frameOf(item: Item): StreamFrame | Promise<StreamFrame>;
  /**
   * The frames that tell a failure once the headers have gone, in the protocol's own in-band form. Without
   * it a failure is thrown on, for streams whose items already carry their failures.
   */
  errorFrames?(error: GatewayError): StreamFrame[];
  /** Runs however the stream ended, before the response ends: where handlers hand their usage over. */
  finish?(): void;
}

/**
 * The one send loop of every streamed answer: each item goes out as its frame as it comes, the writer
 * waiting whenever the client reads slowly (so nothing is buffered without bound); a client that left
 * stops the loop, which stops the upstream; a failure is told in-band, since the status went out with the
 * first byte; and the response always ends.
 *
 * @example
 * await sendStream(new SseWriter(res), answer.frames, {
 *   frameOf: (frame) => ({ data: frame }),
 *   errorFrames: (error) => [{ data: renderErrorBody('openai', error) }],
 *   finish: () => (context.usage = answer.usage()),
 * });
 */
export async function sendStream<Item>(out: StreamSink, items: AsyncIterable<Item>, protocol: StreamProtocol<Item>): Promise<void> {
  try {
    for await (const item of items) {
      const { data, event } = await protocol.frameOf(item);
      if (!out.isOpen) break;
      await out.send(data, event);
    }
  } catch (error) {
    if (!protocol.errorFrames) throw error;
    for (const { data, event } of protocol.errorFrames(toGatewayError(error))) if (out.isOpen) await out.send(data, event);
  } finally {
    protocol.finish?.();
    out.end();
  }
}
