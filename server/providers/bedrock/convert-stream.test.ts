import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamEvent } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { convertBedrockStream } from './convert-stream.js';
import type { EventStreamMessage } from './read-event-stream.js';

const event = (type: string, payload: unknown): EventStreamMessage => ({ messageType: 'event', type, payload: JSON.stringify(payload) });

async function convert(messages: EventStreamMessage[]): Promise<StreamEvent[]> {
  async function* source() {
    yield* messages;
  }
  const events: StreamEvent[] = [];
  for await (const streamEvent of convertBedrockStream(source(), 'aws')) events.push(streamEvent);
  return events;
}

describe('convertBedrockStream', () => {
  it('converts text, reasoning, tool calls, the stop reason and usage with cache tokens', async () => {
    const events = await convert([
      event('messageStart', { role: 'assistant', p: 'xyz' }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Let me see.' } } }),
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-1' } } }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Checking.' } }),
      event('contentBlockStop', { contentBlockIndex: 1 }),
      event('contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 'tu_1', name: 'weather' } } }),
      event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"city":' } } }),
      event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '"Oslo"}' } } }),
      event('contentBlockStop', { contentBlockIndex: 2 }),
      event('contentBlockStart', { contentBlockIndex: 3, start: { toolUse: { toolUseId: 'tu_2', name: 'now' } } }),
      event('contentBlockStop', { contentBlockIndex: 3 }),
      event('messageStop', { stopReason: 'tool_use' }),
      event('metadata', { usage: { inputTokens: 10, outputTokens: 20, totalTokens: 45, cacheReadInputTokens: 10, cacheWriteInputTokens: 5 }, metrics: { latencyMs: 3 } }),
    ]);
    assert.deepEqual(events, [
      { type: 'start' },
      { type: 'reasoning_delta', text: 'Let me see.' },
      { type: 'reasoning_delta', text: '', signature: 'sig-1' },
      { type: 'text_delta', text: 'Checking.' },
      { type: 'tool_call_start', index: 0, id: 'tu_1', name: 'weather' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Oslo"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'tool_call_start', index: 1, id: 'tu_2', name: 'now' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool_call_end', index: 1 },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage: { inputTokens: 25, cachedInputTokens: 10, cacheWriteInputTokens: 5, outputTokens: 20, reasoningTokens: 0 } },
    ]);
  });

  it('maps each stop reason', async () => {
    const cases: Array<[string, string]> = [
      ['end_turn', 'stop'],
      ['max_tokens', 'length'],
      ['stop_sequence', 'stop_sequence'],
      ['content_filtered', 'content_filter'],
      ['guardrail_intervened', 'content_filter'],
      ['something_new', 'stop'],
    ];
    for (const [stopReason, reason] of cases) {
      const events = await convert([event('messageStart', {}), event('messageStop', { stopReason })]);
      assert.deepEqual(events.at(-1), { type: 'finish', reason }, stopReason);
    }
  });

  it('throws exceptions with the status they have as HTTP answers', async () => {
    const exception = (type: string): EventStreamMessage => ({ messageType: 'exception', type, payload: '{"message":"Nope"}' });
    const statusOf = async (type: string) => {
      try {
        await convert([event('messageStart', {}), exception(type)]);
      } catch (error) {
        assert.ok(error instanceof GatewayError && error.upstream);
        return error.upstream.status;
      }
      assert.fail('no error');
    };
    assert.equal(await statusOf('throttlingException'), 429);
    assert.equal(await statusOf('validationException'), 400);
    assert.equal(await statusOf('serviceUnavailableException'), 503);
    assert.equal(await statusOf('modelStreamErrorException'), 500);
  });

  it('refuses a stream that ends before messageStop, and a payload that is not JSON', async () => {
    await assert.rejects(convert([event('messageStart', {}), event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'half' } })]), /ended before/);
    await assert.rejects(convert([{ messageType: 'event', type: 'messageStart', payload: '{"role":' }]), /not a JSON object/);
  });
});
