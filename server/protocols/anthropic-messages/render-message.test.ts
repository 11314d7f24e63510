import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMatchesSchema } from '../../../test/helpers/contract-schemas.js';
import type { ModelResponse } from '../../core/internal-representation.js';
import { renderMessage, renderMessageUsage } from './render-message.js';

const usage = { inputTokens: 120, cachedInputTokens: 100, cacheWriteInputTokens: 5, outputTokens: 30, reasoningTokens: 0 };
const ids = { id: 'msg_1', model: 'gpt-4o' };

describe('renderMessage', () => {
  it('renders text, reasoning and tool calls as Anthropic blocks, matching the contract', () => {
    const response: ModelResponse = {
      content: [
        { type: 'reasoning', text: 'Let me think.' },
        { type: 'text', text: 'Calling the tool.' },
        { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}', signature: 'sig' },
      ],
      finishReason: 'tool_calls',
      usage,
    };
    const message = renderMessage(response, ids);
    assertMatchesSchema('AnthropicMessage', message);
    assert.deepEqual(message.content, [
      { type: 'thinking', thinking: 'Let me think.', signature: '' },
      { type: 'text', text: 'Calling the tool.' },
      { type: 'tool_use', id: 'call_1__ts_c2ln', name: 'weather', input: { city: 'Paris' } },
    ]);
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.stop_sequence, null);
    assert.equal(message.model, 'gpt-4o');
  });

  it('keeps signed and redacted thinking for the next turn', () => {
    const message = renderMessage(
      { content: [{ type: 'reasoning', text: 'Hmm', signature: 'EqQB' }, { type: 'reasoning', text: '', redacted: 'EmwK' }], finishReason: 'stop', usage },
      ids,
    );
    assert.deepEqual(message.content, [
      { type: 'thinking', thinking: 'Hmm', signature: 'EqQB' },
      { type: 'redacted_thinking', data: 'EmwK' },
    ]);
  });

  it('maps finish reasons, the stop sequence, and a tool call that came with a plain stop', () => {
    const render = (response: Partial<ModelResponse>) => renderMessage({ content: [], finishReason: 'stop', usage, ...response }, ids);
    assert.equal(render({ finishReason: 'length' }).stop_reason, 'max_tokens');
    assert.equal(render({ finishReason: 'content_filter' }).stop_reason, 'refusal');
    const stopped = render({ finishReason: 'stop_sequence', stopSequence: 'END' });
    assert.deepEqual([stopped.stop_reason, stopped.stop_sequence], ['stop_sequence', 'END']);
    const called = render({ content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '' }] });
    assert.equal(called.stop_reason, 'tool_use');
    assert.deepEqual(called.content[0], { type: 'tool_use', id: 'c', name: 'f', input: {} }, 'no arguments is an empty input');
  });

  it("counts cache reads and writes apart from input_tokens, as Anthropic does", () => {
    assert.deepEqual(renderMessageUsage(usage), { input_tokens: 15, output_tokens: 30, cache_creation_input_tokens: 5, cache_read_input_tokens: 100 });
  });
});
