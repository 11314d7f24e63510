import { getChunkedStream } from '@smithy/core/event-streams';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { GatewayError } from '../../core/gateway-error.js';

/** One decoded `application/vnd.amazon.eventstream` message: its `:message-type`, its event or exception type, its payload. */
export interface EventStreamMessage {
  /** `event`, `exception` or `error`. */
  messageType: string;
  /** `:event-type` of an event, `:exception-type` of an exception, `:error-code` of an error. */
  type: string;
  /** The payload as text (JSON for Bedrock), or `:error-message` of an error. */
  payload: string;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * The messages of an AWS event stream as they complete, from body chunks cut anywhere: the AWS SDK's own
 * pieces do the work, `getChunkedStream` reassembling each message by its length prelude and the codec
 * checking both CRCs and parsing the headers. Only the message being assembled is held, never the stream.
 * A broken frame (bad CRC, truncated message) is the upstream's failure, with no status so the router
 * may retry while nothing has reached the client.
 *
 * @example
 * for await (const message of readEventStream(client.chunks(reply, signal), 'aws')) console.log(message.type);
 */
export async function* readEventStream(chunks: AsyncIterable<Uint8Array>, providerId: string): AsyncGenerator<EventStreamMessage> {
  // getChunkedStream pulls from the source by hand and never closes it, so leaving early (client gone)
  // closes the source here, which releases the upstream socket.
  const source = chunks[Symbol.asyncIterator]();
  const frames = getChunkedStream({ [Symbol.asyncIterator]: () => source })[Symbol.asyncIterator]();
  try {
    yield* decodeFrames(frames, providerId);
  } finally {
    await source.return?.();
  }
}

async function* decodeFrames(frames: AsyncIterator<Uint8Array>, providerId: string): AsyncGenerator<EventStreamMessage> {
  while (true) {
    let next: IteratorResult<Uint8Array>;
    let message: ReturnType<EventStreamCodec['decode']>;
    try {
      next = await frames.next();
      if (next.done) return;
      message = codec.decode(next.value);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw new GatewayError('upstream', `The upstream provider '${providerId}' sent a malformed event stream frame.`, { upstream: { providerId }, cause: error });
    }
    const header = (name: string) => {
      const value = message.headers[name]?.value;
      return typeof value === 'string' ? value : '';
    };
    const messageType = header(':message-type');
    const type = header(messageType === 'exception' ? ':exception-type' : messageType === 'error' ? ':error-code' : ':event-type');
    const payload = messageType === 'error' ? header(':error-message') : toUtf8(message.body);
    yield { messageType, type, payload };
  }
}
