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
 * The largest message accepted. The chunker allocates a message's whole declared length up front, so a
 * garbage length prefix could ask for 4 GB; AWS caps event-stream messages at 16 MB (the codec's own
 * limit for a payload), and Bedrock's events are a few kilobytes.
 */
const maxMessageBytes = 16 * 1024 * 1024;
/** Prelude (total length, headers length, prelude CRC) and message CRC: the smallest possible message. */
const minMessageBytes = 16;

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
  const limited = withMessageSizeLimit({ [Symbol.asyncIterator]: () => source }, providerId);
  const frames = getChunkedStream(limited)[Symbol.asyncIterator]();
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

/**
 * The chunks as they come, checking each message's declared length (the first four bytes of its prelude,
 * big-endian) before the chunker sees it and allocates that much. Only lengths are read here; the
 * chunker and the codec still do the framing and the CRCs.
 */
async function* withMessageSizeLimit(chunks: AsyncIterable<Uint8Array>, providerId: string): AsyncGenerator<Uint8Array> {
  let remaining = 0; // bytes of the current message still to pass
  const prefix = new Uint8Array(4); // a length prefix cut across chunks
  let prefixBytes = 0;
  for await (const chunk of chunks) {
    let offset = 0;
    while (offset < chunk.length) {
      if (remaining > 0) {
        const passed = Math.min(remaining, chunk.length - offset);
        offset += passed;
        remaining -= passed;
        continue;
      }
      const taken = Math.min(4 - prefixBytes, chunk.length - offset);
      prefix.set(chunk.subarray(offset, offset + taken), prefixBytes);
      prefixBytes += taken;
      offset += taken;
      if (prefixBytes < 4) break;
      const total = new DataView(prefix.buffer).getUint32(0);
      if (total < minMessageBytes || total > maxMessageBytes) {
        throw new GatewayError('upstream', `The upstream provider '${providerId}' sent an event stream message of ${total} bytes (at most ${maxMessageBytes} are accepted).`, {
          upstream: { providerId },
        });
      }
      remaining = total - 4;
      prefixBytes = 0;
    }
    yield chunk;
  }
}
