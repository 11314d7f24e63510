import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMatchesSchema } from '../../../test/helpers/contract-schemas.js';
import { decodeToolCallId } from '../../core/tool-call-signature.js';
import type { ModelResponse } from '../../core/internal-representation.js';
import { decodeReasoningState } from './reasoning-state.js';
import { renderResponse, renderResponsesUsage, type ResponseEcho } from './render-response.js';

const echo: ResponseEcho = {
  model: 'test-model',
  instructions: 'Be brief.',
  previous_response_id: null,
  store: true,
  temperature: null,
  top_p: null,
  max_output_tokens: null,
  tool_choice: 'auto',
  tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false }],
  text: { format: { type: 'text' } },
  reasoning: null,
  parallel_tool_calls: true,
  metadata: { run: '1' },
  truncation: 'disabled',
  user: null,
};

const usage = { inputTokens: 20, cachedInputTokens: 5, outputTokens: 30, reasoningTokens: 8 };
const options = { id: 'resp_test', createdAt: 1_700_000_000, completedAt: 1_700_000_002 };
const hexId = (prefix: string) => new RegExp(`^${prefix}_[0-9a-f]{48}$`);

describe('renderResponse', () => {
  it('renders reasoning, text and a tool call as items in content order', () => {
    const answer: ModelResponse = {
      content: [
        { type: 'reasoning', text: 'The user wants weather.', signature: 'sig' },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', signature: 'gemini-sig' },
      ],
      finishReason: 'tool_calls',
      usage,
    };
    const response = renderResponse(answer, echo, options);
    assertMatchesSchema('ResponsesResponse', response);

    assert.equal(response.id, 'resp_test');
    assert.equal(response.object, 'response');
    assert.equal(response.created_at, 1_700_000_000);
    assert.equal(response.completed_at, 1_700_000_002);
    assert.equal(response.status, 'completed');
    assert.equal(response.error, null);
    assert.equal(response.incomplete_details, null);
    assert.equal(response.model, 'test-model');
    assert.equal(response.instructions, 'Be brief.');
    assert.deepEqual(response.metadata, { run: '1' });
    assert.deepEqual(response.tools, echo.tools);
    assert.equal('output_text' in response, false, 'the SDK computes output_text; the spec has no such field');
    assert.deepEqual(response.usage, {
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 5, cache_write_tokens: 0 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 8 },
      total_tokens: 50,
    });

    const [reasoning, message, call] = response.output;
    assert.equal(response.output.length, 3);
    assert.ok(reasoning.type === 'reasoning' && message.type === 'message' && call.type === 'function_call');
    assert.match(reasoning.id ?? '', hexId('rs'));
    assert.deepEqual(reasoning.summary, [{ type: 'summary_text', text: 'The user wants weather.' }]);
    assert.deepEqual(decodeReasoningState(reasoning.encrypted_content ?? ''), { signature: 'sig' }, 'the signature must come back to its upstream');
    assert.match(message.id, hexId('msg'));
    assert.deepEqual(message, {
      type: 'message',
      id: message.id,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Let me check.', annotations: [], logprobs: [] }],
    });
    assert.match(call.id ?? '', hexId('fc'));
    assert.equal(call.status, 'completed');
    assert.equal(call.name, 'get_weather');
    assert.equal(call.arguments, '{"city":"Paris"}');
    assert.deepEqual(decodeToolCallId(call.call_id), { id: 'call_1', signature: 'gemini-sig' }, 'the Gemini signature survives');
  });

  it('reports a length stop as incomplete, with the last item cut short', () => {
    const answer: ModelResponse = { content: [{ type: 'text', text: 'Once upon a' }], finishReason: 'length', usage };
    const response = renderResponse(answer, { ...echo, max_output_tokens: 16 }, options);
    assertMatchesSchema('ResponsesResponse', response);
    assert.equal(response.status, 'incomplete');
    assert.deepEqual(response.incomplete_details, { reason: 'max_output_tokens' });
    assert.equal(response.completed_at, null);
    assert.equal(response.max_output_tokens, 16);
    assert.equal(response.output[0].type === 'message' && response.output[0].status, 'incomplete');
  });

  for (const reason of ['content_filter', 'refusal'] as const) {
    it(`reports a ${reason} stop as incomplete for content_filter`, () => {
      const response = renderResponse({ content: [{ type: 'text', text: 'I cannot' }], finishReason: reason, usage }, echo, options);
      assertMatchesSchema('ResponsesResponse', response);
      assert.equal(response.status, 'incomplete');
      assert.deepEqual(response.incomplete_details, { reason: 'content_filter' });
    });
  }

  it('keeps signatures and redacted reasoning in encrypted_content, and leaves out empty text', () => {
    const answer: ModelResponse = {
      content: [{ type: 'reasoning', text: 'Hmm.', signature: 'sig==', redacted: 'opaque==' }, { type: 'text', text: '' }],
      finishReason: 'stop',
      usage,
    };
    const response = renderResponse(answer, echo, options);
    assertMatchesSchema('ResponsesResponse', response);
    const [reasoning] = response.output as Array<{ encrypted_content: string }>;
    assert.deepEqual(response.output, [
      { type: 'reasoning', id: response.output[0].id, summary: [{ type: 'summary_text', text: 'Hmm.' }], encrypted_content: reasoning.encrypted_content },
    ]);
    assert.deepEqual(decodeReasoningState(reasoning.encrypted_content), { signature: 'sig==', redacted: 'opaque==' });
  });

  it('uses the given item IDs, the applied output limit, and defaults for settings the request left out', () => {
    const answer: ModelResponse = { content: [{ type: 'text', text: 'Hi' }], finishReason: 'stop', usage };
    const response = renderResponse(answer, { ...echo, text: null, tool_choice: undefined, tools: [] }, {
      ...options,
      maxOutputTokens: 4096,
      itemIds: ['msg_given'],
    });
    assertMatchesSchema('ResponsesResponse', response);
    assert.equal(response.output[0].id, 'msg_given');
    assert.equal(response.max_output_tokens, 4096);
    assert.deepEqual(response.text, { format: { type: 'text' } });
    assert.equal(response.tool_choice, 'auto');
    assert.deepEqual(response.output, [
      { type: 'message', id: 'msg_given', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hi', annotations: [], logprobs: [] }] },
    ]);
  });

  it('renders an answer with no content as an empty output array', () => {
    const response = renderResponse({ content: [], finishReason: 'stop', usage }, echo, options);
    assertMatchesSchema('ResponsesResponse', response);
    assert.deepEqual(response.output, []);
  });
});

describe('renderResponsesUsage', () => {
  it("says cache_write_tokens always, as OpenAI's spec requires: the upstream's cache writes, else 0", () => {
    const usage = { inputTokens: 100, cachedInputTokens: 40, outputTokens: 10, reasoningTokens: 0 };
    assert.deepEqual(renderResponsesUsage({ ...usage, cacheWriteInputTokens: 25 }).input_tokens_details, { cached_tokens: 40, cache_write_tokens: 25 });
    assert.deepEqual(renderResponsesUsage(usage).input_tokens_details, { cached_tokens: 40, cache_write_tokens: 0 });
  });
});
