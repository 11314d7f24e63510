import { toGatewayError } from './to-gateway-error.js';
import type { GatewayError } from '../core/gateway-error.js';
import type { StreamFrame } from '../core/stream-frame.js';
import type { StreamSink } from '../core/stream-sink.js';

export interface StreamProtocol<Item, Data> {
  /** The frame an item goes out as; it may act on the item first (store a finished response, meter an image). */
  frameOf(item: Item): StreamFrame<Data> | Promise<StreamFrame<Data>>;
  /**
   * The frames that tell a failure once the headers have gone, in the protocol's own in-band form. Without
   * it a failure is thrown on, for streams whose items already carry their failures.
   */
  errorFrames?(error: GatewayError): StreamFrame<Data>[];
  /**
   * The client has gone, and `data` is a frame it would have been sent: whether to read on, dropping it.
   * Without it the loop stops, which stops the upstream.
   */
  readOnWithoutClient?(data: StreamFrame<Data>['data']): boolean;
  /**
   * Runs however the stream ended, before the response ends: where handlers hand their usage over.
   * `whole` says whether the items ran out, rather than failing or being left.
   */
  finish?(whole: boolean): void;
}

/**
 * The one send loop of every streamed answer: each item goes out as its frame as it comes, the writer
 * waiting whenever the client reads slowly (so nothing is buffered without bound); once the client has
 * left, frames are dropped while `readOnWithoutClient` allows, and then the loop stops, which stops the
 * upstream; a failure is told in-band, since the status went out with the first byte; and the response
 * always ends.
 *
 * @example
 * await sendStream(new SseWriter(res), answer.frames, {
 *   frameOf: (frame) => ({ data: frame }),
 *   errorFrames: (error) => [{ data: renderOpenAIError(error) }],
 *   finish: () => (context.usage = answer.usage()),
 * });
 */
export async function sendStream<Item, Data>(out: StreamSink, items: AsyncIterable<Item>, protocol: StreamProtocol<Item, Data>): Promise<void> {
  let whole = false;
  try {
    for await (const item of items) {
      // Per item, only what must be waited for is: a frame made later, a client reading slowly. Each await
      // of a value at hand would cost a promise and an async stage per event (bench/README.md).
      const made = protocol.frameOf(item);
      const { data, event } = made instanceof Promise ? await made : made;
      if (out.isOpen) {
        const sent = out.send(data, event);
        if (sent) await sent;
      } else if (!protocol.readOnWithoutClient?.(data)) return;
    }
    whole = true;
  } catch (error) {
    if (!protocol.errorFrames) throw error;
    for (const { data, event } of protocol.errorFrames(toGatewayError(error))) if (out.isOpen) await out.send(data, event);
  } finally {
    protocol.finish?.(whole);
    out.end();
  }
}
