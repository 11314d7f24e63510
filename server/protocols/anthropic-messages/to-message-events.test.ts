import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertAnthropicStream } from '../../../test/helpers/anthropic-stream.js';
import { asAsync } from '../../../test/helpers/upstream-fixtures.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import { toMessageEvents } from './to-message-events.js';
import type { MessagesStreamEvent } from './wire-types.js';

const usage = { inputTokens: 20, cachedInputTokens: 0, outputTokens: 9, reasoningTokens: 3 };

async function convert(events: StreamEvent[]): Promise<MessagesStreamEvent[]> {
  const out: MessagesStreamEvent[] = [];
  for await (const event of toMessageEvents(asAsync(events), { id: 'msg_1', model: 'm' })) out.push(event);
  // Every sequence must pass the same checks as a real stream on the wire.
  assertAnthropicStream(out.map((data) => ({ event: data.type, data })));
  return out;
}

const compact = (events: MessagesStreamEvent[]) =>
  events.map((event) => {
    switch (event.type) {
      case 'content_block_start':
        return `start ${event.index} ${event.content_block.type}`;
      case 'content_block_delta':
        return `delta ${event.index} ${event.delta.type}`;
      case 'content_block_stop':
        return `stop ${event.index}`;
      default:
        return event.type;
    }
  });

describe('toMessageEvents', () => {
  it('streams reasoning, text and a tool call as numbered blocks, ending with usage and message_stop', async () => {
    const events = await convert([
      { type: 'start', id: 'upstream-id' },
      { type: 'reasoning_delta', text: 'Think' },
      { type: 'reasoning_delta', text: '', signature: 'sig' },
      { type: 'text_delta', text: 'Hello' },
      { type: 'text_delta', text: ' there' },
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'weather', signature: 'gem' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage },
    ]);
    assert.deepEqual(compact(events), [
      'message_start',
      'ping',
      'start 0 thinking',
      'delta 0 thinking_delta',
      'delta 0 signature_delta',
      'stop 0',
      'start 1 text',
      'delta 1 text_delta',
      'delta 1 text_delta',
      'stop 1',
      'start 2 tool_use',
      'delta 2 input_json_delta',
      'delta 2 input_json_delta',
      'stop 2',
      'message_delta',
      'message_stop',
    ]);
    const start = events[0]!;
    assert.ok(start.type === 'message_start');
    assert.equal(start.message.id, 'msg_1');
    assert.deepEqual(start.message.usage, { input_tokens: 0, output_tokens: 0 });
    const tool = events[10]!;
    assert.ok(tool.type === 'content_block_start');
    assert.deepEqual(tool.content_block, { type: 'tool_use', id: 'call_1__ts_Z2Vt', name: 'weather', input: {} });
    const delta = events.at(-2)!;
    assert.ok(delta.type === 'message_delta');
    assert.deepEqual(delta.delta, { stop_reason: 'tool_use', stop_sequence: null });
    assert.deepEqual(delta.usage, { input_tokens: 20, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('gives redacted thinking a block of its own and skips empty deltas', async () => {
    const events = await convert([
      { type: 'reasoning_delta', text: '', redacted: 'EmwK' },
      { type: 'text_delta', text: '' },
      { type: 'text_delta', text: 'Hi' },
      { type: 'finish', reason: 'stop_sequence', stopSequence: 'END' },
    ]);
    assert.deepEqual(compact(events), ['message_start', 'ping', 'start 0 redacted_thinking', 'stop 0', 'start 1 text', 'delta 1 text_delta', 'stop 1', 'message_delta', 'message_stop']);
    const delta = events.at(-2)!;
    assert.ok(delta.type === 'message_delta');
    assert.deepEqual(delta.delta, { stop_reason: 'stop_sequence', stop_sequence: 'END' });
    assert.deepEqual(delta.usage, { output_tokens: 0 }, 'no usage from upstream');
  });

  it('closes each tool call before the next, and says tool_use when calls came with a plain stop', async () => {
    const events = await convert([
      { type: 'tool_call_start', index: 0, id: 'a', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool_call_start', index: 1, id: 'b', name: 'g' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '' },
      { type: 'tool_call_end', index: 0 },
      { type: 'tool_call_end', index: 1 },
      { type: 'finish', reason: 'stop' },
    ]);
    assert.deepEqual(compact(events), ['message_start', 'ping', 'start 0 tool_use', 'delta 0 input_json_delta', 'stop 0', 'start 1 tool_use', 'stop 1', 'message_delta', 'message_stop']);
    const delta = events.at(-2)!;
    assert.ok(delta.type === 'message_delta' && delta.delta.stop_reason === 'tool_use');
  });

  it('lets a failure of the source through for the caller to report', async () => {
    async function* failing(): AsyncGenerator<StreamEvent> {
      yield { type: 'text_delta', text: 'partial' };
      throw new Error('upstream broke');
    }
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const event of toMessageEvents(failing(), { id: 'msg_1', model: 'm' })) seen.push(event.type);
    }, /upstream broke/);
    assert.deepEqual(seen, ['message_start', 'ping', 'content_block_start', 'content_block_delta']);
  });
});
