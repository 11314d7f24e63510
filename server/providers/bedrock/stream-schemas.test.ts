import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../../core/gateway-error.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import { convertBedrockStream } from './convert-stream.js';
import type { EventStreamMessage } from './read-event-stream.js';

// The ConverseStream event schemas as the translation meets them: what AWS adds is passed over, what it
// breaks fails the stream cleanly.

const event = (type: string, payload: unknown): EventStreamMessage => ({ messageType: 'event', type, payload: JSON.stringify(payload) });
const opening = [event('messageStart', { role: 'assistant', p: 'abc' }), event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' }, p: 'abcd' })];

async function* source(messages: EventStreamMessage[]): AsyncGenerator<EventStreamMessage> {
  yield* messages;
}

async function convert(messages: EventStreamMessage[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const streamEvent of convertBedrockStream(source(messages), 'aws')) out.push(streamEvent);
  return out;
}

async function failure(messages: EventStreamMessage[]): Promise<{ error: GatewayError; before: StreamEvent[] }> {
  const before: StreamEvent[] = [];
  try {
    for await (const streamEvent of convertBedrockStream(source(messages), 'aws')) before.push(streamEvent);
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    return { error, before };
  }
  return assert.fail('the stream did not fail');
}

describe('ConverseStream events the translation reads', () => {
  it('pass over unknown fields, delta kinds, event types and stop reasons', async () => {
    const events = await convert([
      ...opening,
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { citation: { title: 'x', location: {} } }, p: 'a' }),
      event('contentBlockStart', { contentBlockIndex: 1, start: { image: { format: 'png' } } }),
      event('contentBlockStop', { contentBlockIndex: 1 }),
      event('aNewKindOfEvent', { anything: [1] }),
      event('messageStop', { stopReason: 'a_new_reason', additionalModelResponseFields: {} }),
      event('metadata', { usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4, cacheDetails: [] }, metrics: { latencyMs: 9 }, trace: {} }),
    ]);
    assert.deepEqual(events, [
      { type: 'start' },
      { type: 'text_delta', text: 'Hi' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 3, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 1, reasoningTokens: 0 } },
    ]);
  });

  it('fail the stream on a contentBlockDelta without its delta, naming the provider and the field', async () => {
    const { error, before } = await failure([...opening, event('contentBlockDelta', { contentBlockIndex: 0, p: 'ab' })]);
    assert.equal(error.kind, 'upstream');
    assert.deepEqual(error.upstream, { providerId: 'aws' });
    assert.equal(error.message, "The upstream provider 'aws' (bedrock) sent a malformed contentBlockDelta event: delta: required");
    assert.deepEqual(before, [{ type: 'start' }, { type: 'text_delta', text: 'Hi' }]);
  });

  it('fail the stream on usage counts that are strings, and on tool input that is not text', async () => {
    const usage = await failure([...opening, event('messageStop', { stopReason: 'end_turn' }), event('metadata', { usage: { inputTokens: '3' } })]);
    assert.match(usage.error.message, /malformed metadata event: usage\.inputTokens: Invalid input: expected number, received string$/);
    const input = await failure([...opening, event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: { city: 'Oslo' } } } })]);
    assert.match(input.error.message, /malformed contentBlockDelta event: delta\.toolUse\.input: Invalid input: expected string, received object$/);
  });
});
