import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { GatewayError } from '../../core/gateway-error.js';
import { readEventStream, type EventStreamMessage } from './read-event-stream.js';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const string = (value: string) => ({ type: 'string' as const, value });
const frame = (eventType: string, payload: unknown) =>
  codec.encode({
    headers: { ':event-type': string(eventType), ':content-type': string('application/json'), ':message-type': string('event') },
    body: fromUtf8(JSON.stringify(payload)),
  });

const frames = [
  frame('messageStart', { role: 'assistant', p: 'abc' }),
  frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'héllo ✓' } }),
  frame('messageStop', { stopReason: 'end_turn' }),
];
const bytes = Buffer.concat(frames);
const expected: EventStreamMessage[] = [
  { messageType: 'event', type: 'messageStart', payload: '{"role":"assistant","p":"abc"}' },
  { messageType: 'event', type: 'contentBlockDelta', payload: '{"contentBlockIndex":0,"delta":{"text":"héllo ✓"}}' },
  { messageType: 'event', type: 'messageStop', payload: '{"stopReason":"end_turn"}' },
];

async function* pieces(data: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const cut of [...cuts, data.length]) {
    yield data.subarray(start, cut);
    start = cut;
  }
}

async function read(chunks: AsyncIterable<Uint8Array>): Promise<EventStreamMessage[]> {
  const messages: EventStreamMessage[] = [];
  for await (const message of readEventStream(chunks, 'aws')) messages.push(message);
  return messages;
}

describe('readEventStream', () => {
  it('decodes the same messages wherever the chunks are cut', async () => {
    assert.deepEqual(await read(pieces(bytes, [])), expected, 'all frames in one chunk');
    for (let cut = 1; cut < bytes.length; cut += 1) assert.deepEqual(await read(pieces(bytes, [cut])), expected, `cut at ${cut}`);
    const everyByte = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    assert.deepEqual(await read(pieces(bytes, everyByte)), expected, 'one byte per chunk');
  });

  it('yields each message as soon as its last byte arrives, not at the end of the stream', async () => {
    let sent = 0;
    async function* slow(): AsyncGenerator<Uint8Array> {
      for (const f of frames) {
        sent += 1;
        yield f;
      }
    }
    const reader = readEventStream(slow(), 'aws');
    await reader.next();
    assert.equal(sent, 1);
    await reader.return(undefined);
  });

  it('reads exceptions by their exception type', async () => {
    const exception = codec.encode({
      headers: { ':exception-type': string('throttlingException'), ':content-type': string('application/json'), ':message-type': string('exception') },
      body: fromUtf8('{"message":"Slow down"}'),
    });
    assert.deepEqual(await read(pieces(exception, [3])), [{ messageType: 'exception', type: 'throttlingException', payload: '{"message":"Slow down"}' }]);
  });

  it('turns a corrupted or truncated frame into an upstream error', async () => {
    const corrupted = Buffer.from(bytes);
    corrupted[frames[0]!.length + 20] ^= 0xff;
    await assert.rejects(read(pieces(corrupted, [])), (error: unknown) => error instanceof GatewayError && error.upstream?.providerId === 'aws');
    await assert.rejects(read(pieces(bytes.subarray(0, bytes.length - 3), [])), (error: unknown) => error instanceof GatewayError && /malformed/.test(error.message));
  });

  it('refuses a message whose declared length is absurd before anything allocates it, wherever the prefix is cut', async () => {
    const garbage = Buffer.from([0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 0, 1, 2, 3, 4]);
    for (const cuts of [[], [2], [1, 3]]) {
      await assert.rejects(read(pieces(Buffer.concat([frames[0]!, garbage]), cuts.map((cut) => frames[0]!.length + cut))), (error: unknown) => {
        assert.ok(error instanceof GatewayError);
        assert.match(error.message, /sent an event stream message of 4294967280 bytes \(at most 16777216 are accepted\)/);
        return true;
      });
    }
  });

  it('closes the source when the reader stops early, so the socket is released', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        yield bytes;
        yield bytes;
      } finally {
        closed = true;
      }
    }
    for await (const _message of readEventStream(source(), 'aws')) break;
    assert.equal(closed, true);
  });
});
