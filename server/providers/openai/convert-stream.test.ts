import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamEvent } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { asAsync, fixtureChunks, fixtureSseEvents } from '../../../test/helpers/upstream-fixtures.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { convertStream } from './convert-stream.js';

async function collect(events: SseEvent[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of convertStream(asAsync(events), 'test')) out.push(event);
  return out;
}

/** Hand-made chunks in OpenAI's shape, for cases the recordings lack. */
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  data: JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] }),
});
const done = { data: '[DONE]' };

const isUpstreamError = (message: RegExp) => (error: unknown) =>
  error instanceof GatewayError && error.kind === 'upstream' && error.upstream?.providerId === 'test' && message.test(error.message);

describe('convertStream (Chat Completions chunks → stream events)', () => {
  it('converts the recorded text stream: deltas, finish stop, then usage', async () => {
    const events = await collect(fixtureSseEvents('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat'));
    assert.deepEqual(events[0], { type: 'start', id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0' });
    const expectedText = fixtureChunks('openai-chat/stream-text-include-usage.chunks.txt')
      .map((line) => (JSON.parse(line) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
      .join('');
    const text = events.map((event) => (event.type === 'text_delta' ? event.text : '')).join('');
    assert.equal(text, expectedText);
    assert.ok(text.startsWith('**Holiday Name:** Harmony Day'));
    assert.ok(events.slice(1, -2).every((event) => event.type === 'text_delta' && event.text !== ''));
    assert.deepEqual(events.slice(-2), [
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 16, cachedInputTokens: 0, outputTokens: 300, reasoningTokens: 0, serviceTier: 'default' } },
    ]);
  });

  it('converts the recorded tool-call stream', async () => {
    const events = await collect(fixtureSseEvents('openai-chat/stream-tool-call-include-usage.chunks.txt', 'openai-chat'));
    assert.deepEqual(events[1], { type: 'tool_call_start', index: 0, id: 'call_1EYWDzueHEp8OsB8jJSEp7WB', name: 'multiply' });
    const args = events.map((event) => (event.type === 'tool_call_delta' ? event.argumentsDelta : '')).join('');
    assert.deepEqual(JSON.parse(args), { a: 1231, b: 2331 });
    assert.equal(events.filter((event) => event.type === 'text_delta').length, 0);
    assert.deepEqual(events.slice(-3), [
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage: { inputTokens: 54, cachedInputTokens: 0, outputTokens: 20, reasoningTokens: 0, serviceTier: 'default' } },
    ]);
  });

  it('numbers interleaved parallel tool calls from 0 and ends both', async () => {
    const events = await collect([
      chunk({ role: 'assistant', content: null }),
      chunk({ tool_calls: [{ index: 3, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 5, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"tz"' } }] }),
      chunk({ tool_calls: [{ index: 3, function: { arguments: '{"city":"Lyon"}' } }] }),
      chunk({ tool_calls: [{ index: 5, function: { arguments: ':"CET"}' } }] }),
      chunk({}, 'tool_calls'),
      done,
    ]);
    assert.deepEqual(events, [
      { type: 'start', id: 'chatcmpl-x' },
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'weather' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'time' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"tz"' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":"Lyon"}' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: ':"CET"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'tool_call_end', index: 1 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('makes up an ID for a tool call that has none', async () => {
    const events = await collect([chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{}' } }] }), chunk({}, 'tool_calls'), done]);
    const start = events[1];
    assert.ok(start?.type === 'tool_call_start');
    assert.match(start.id, /^call_[0-9a-f]{24}$/);
  });

  it('reads reasoning_content (DeepSeek) and reasoning (OpenRouter, Ollama) as reasoning', async () => {
    const events = await collect([
      chunk({ role: 'assistant', reasoning_content: 'Think' }),
      chunk({ reasoning: 'ing.' }),
      chunk({ reasoning_content: 'x', reasoning: 'x' }),
      chunk({ content: 'Answer' }),
      chunk({}, 'stop'),
      { data: JSON.stringify({ id: 'chatcmpl-x', choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 4 }, prompt_tokens_details: { cached_tokens: 2 } } }) },
      done,
    ]);
    assert.deepEqual(events.slice(1), [
      { type: 'reasoning_delta', text: 'Think' },
      { type: 'reasoning_delta', text: 'ing.' },
      { type: 'reasoning_delta', text: 'x' },
      { type: 'text_delta', text: 'Answer' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 5, cachedInputTokens: 2, outputTokens: 9, reasoningTokens: 4 } },
    ]);
  });

  it('passes a refusal on as text and keeps the finish reason as sent', async () => {
    const events = await collect([chunk({ refusal: "I can't help with that." }), chunk({}, 'stop'), done]);
    assert.deepEqual(events.slice(1), [
      { type: 'text_delta', text: "I can't help with that." },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('emits usage sent before or with the finish only after it, and none when the server sends none', async () => {
    const usage = { prompt_tokens: 1, completion_tokens: 2 };
    const withFinish = await collect([chunk({ content: 'a' }), { data: JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'length' }], usage }) }, done]);
    assert.deepEqual(withFinish.slice(-2), [
      { type: 'finish', reason: 'length' },
      { type: 'usage', usage: { inputTokens: 1, cachedInputTokens: 0, outputTokens: 2, reasoningTokens: 0 } },
    ]);
    const none = await collect([chunk({ content: 'a' }), chunk({}, 'stop'), done]);
    assert.equal(none.some((event) => event.type === 'usage'), false);
  });

  it('throws the upstream message for an error chunk', async () => {
    const error = { error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null } };
    await assert.rejects(collect([chunk({ content: 'a' }), { data: JSON.stringify(error) }]), isUpstreamError(/The server had an error/));
  });

  it('throws when the stream ends before a finish reason', async () => {
    const lines = fixtureSseEvents('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat').slice(0, 20);
    await assert.rejects(collect(lines), isUpstreamError(/ended before the answer was complete/));
    await assert.rejects(collect([...lines, done]), isUpstreamError(/ended before the answer was complete/));
  });

  it('throws a GatewayError, not a SyntaxError, on unparseable data', async () => {
    await assert.rejects(collect([chunk({ content: 'a' }), { data: '{"choices": [' }]), isUpstreamError(/not a JSON object/));
  });
});
