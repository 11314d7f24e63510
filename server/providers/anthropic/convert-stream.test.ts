import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asAsync, fixtureJson, fixtureSseEvents } from '../../../test/helpers/upstream-fixtures.js';
import { collectStream } from '../../core/collect-stream.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { convertAnthropicStream, type AnthropicStreamOptions } from './convert-stream.js';

const providerId = 'anthropic-test';
const fixture = (name: string) => fixtureSseEvents(`anthropic-messages/${name}`, 'anthropic-messages');
const convert = (events: SseEvent[], options: Partial<AnthropicStreamOptions> = {}) =>
  convertAnthropicStream(asAsync(events), { providerId, ...options });

async function drain(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

const sse = (data: Record<string, unknown>): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });
const messageStart = sse({ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 5, output_tokens: 1 } } });

describe('convertAnthropicStream', () => {
  it('streams recorded text with finish and usage last', async () => {
    const events = await drain(convert(fixture('stream-text.chunks.txt')));
    assert.deepEqual(events[0], { type: 'start', id: 'msg_01QC4g3HwBThD4BaNtBckFDJ' });
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');
    assert.equal(text, "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?");
    assert.deepEqual(events.slice(-2), [
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 12, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 30, reasoningTokens: 0, serviceTier: 'standard' } },
    ]);
  });

  it('streams a recorded tool call whose joined arguments equal the non-stream input', async () => {
    const events = await drain(convert(fixture('stream-tool-use-input-json-delta.chunks.txt')));
    const deltas = events.filter((event) => event.type === 'tool_call_delta');
    assert.ok(deltas.every((event) => event.argumentsDelta !== ''), 'empty partial_json is skipped');
    const response = await collectStream(asAsync(events));
    assert.equal(response.finishReason, 'tool_calls');
    const [call] = response.content;
    assert.ok(call?.type === 'tool_call');
    assert.equal(call.id, 'toolu_019Zvehfe1XQWweT1pm7okyt');
    assert.equal(call.name, 'weather');
    const recorded = fixtureJson<{ content: Array<{ input: unknown }> }>('anthropic-messages/non-stream-tool-use.json');
    assert.deepEqual(JSON.parse(call.arguments), recorded.content[0]?.input);
    assert.deepEqual(
      events.filter((event) => event.type === 'tool_call_start' || event.type === 'tool_call_end').map((event) => [event.type, event.index]),
      [
        ['tool_call_start', 0],
        ['tool_call_end', 0],
      ],
    );
  });

  it('turns the JSON response tool into the answer text and ends with stop', async () => {
    const response = await collectStream(convert(fixture('stream-text-then-tool-use.chunks.txt'), { jsonToolName: 'json' }));
    assert.equal(response.finishReason, 'stop');
    assert.equal(response.content.length, 1, 'the preamble text is dropped, no tool call remains');
    const [part] = response.content;
    assert.ok(part?.type === 'text');
    assert.deepEqual(JSON.parse(part.text), { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] });
    assert.equal(response.usage.outputTokens, 47);
  });

  it('leaves a tool named json alone when the request did not ask for JSON', async () => {
    const response = await collectStream(convert(fixture('stream-text-then-tool-use.chunks.txt')));
    assert.equal(response.finishReason, 'tool_calls');
    assert.deepEqual(
      response.content.map((part) => part.type),
      ['text', 'tool_call'],
    );
  });

  it('in JSON mode, still answers with text when the model never called the JSON tool', async () => {
    const events = [
      messageStart,
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '{"a":' } }),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '1}' } }),
      sse({ type: 'content_block_stop', index: 0 }),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 4 } }),
      sse({ type: 'message_stop' }),
    ];
    const response = await collectStream(convert(events, { jsonToolName: 'json' }));
    assert.deepEqual(response.content, [{ type: 'text', text: '{"a":1}' }]);
  });

  it('streams recorded thinking with its signature, then the text', async () => {
    const events = await drain(convert(fixture('stream-thinking.chunks.txt')));
    assert.ok(
      events.filter((event) => event.type === 'reasoning_delta').every((event) => event.text !== '' || event.signature),
      'empty thinking deltas are skipped',
    );
    const response = await collectStream(asAsync(events));
    assert.deepEqual(
      response.content.map((part) => part.type),
      ['reasoning', 'text'],
    );
    const [thinking, text] = response.content;
    assert.ok(thinking?.type === 'reasoning' && text?.type === 'text');
    assert.equal(thinking.text, 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185');
    assert.match(thinking.signature ?? '', /^EvQBCkYICxgCKkAxhD4N/);
    assert.equal(text.text, '925 ÷ 5 = 185');
    assert.equal(response.usage.outputTokens, 53);
  });

  it('passes redacted thinking on as a reasoning delta carrying the payload', async () => {
    const events = await drain(
      convert([
        messageStart,
        sse({ type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' } }),
        sse({ type: 'content_block_stop', index: 0 }),
        sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }),
        sse({ type: 'message_stop' }),
      ]),
    );
    assert.deepEqual(events[1], { type: 'reasoning_delta', text: '', redacted: 'EmwKAhgBEgy3' });
  });

  it('reports cache reads and writes, a stop sequence, and numbers tool calls from 0', async () => {
    const events = await drain(
      convert([
        sse({ type: 'message_start', message: { id: 'msg_2', usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 1 } } }),
        sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        sse({ type: 'content_block_stop', index: 0 }),
        sse({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_a', name: 'now', input: {} } }),
        sse({ type: 'content_block_stop', index: 1 }),
        sse({ type: 'message_delta', delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' }, usage: { output_tokens: 7 } }),
        sse({ type: 'message_stop' }),
        sse({ type: 'content_block_start', index: 9, content_block: { type: 'text', text: 'after the end' } }),
      ]),
    );
    assert.deepEqual(events.slice(1), [
      { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'now' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'stop_sequence', stopSequence: 'END' },
      { type: 'usage', usage: { inputTokens: 130, cachedInputTokens: 100, cacheWriteInputTokens: 20, outputTokens: 7, reasoningTokens: 0 } },
    ]);
  });

  it('throws an in-stream error event as a GatewayError classified by its type', async () => {
    const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    await assert.rejects(drain(convert([sse(overloaded)])), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.kind, 'overloaded');
      assert.deepEqual([error.upstream?.providerId, error.upstream?.status], [providerId, 529]);
      assert.match(error.message, /Overloaded/);
      return true;
    });
    const invalid = fixtureJson('anthropic-messages/error-invalid-request.json');
    await assert.rejects(drain(convert([messageStart, sse(invalid)])), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.kind, 'invalid_request');
      assert.equal(error.upstream?.status, 400);
      assert.match(error.message, /^messages\.1: `tool_use` ids were found without `tool_result` blocks/);
      return true;
    });
    const limited = { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } };
    await assert.rejects(drain(convert([sse(limited)])), { kind: 'rate_limited' });
    const failed = { type: 'error', error: { type: 'api_error', message: 'Internal server error' } };
    await assert.rejects(drain(convert([sse(failed)])), { kind: 'upstream', upstream: { providerId, status: 500, retryAfterMs: undefined } });
  });

  it('throws when the recorded stream is cut before message_stop', async () => {
    const truncated = fixture('stream-text.chunks.txt').slice(0, 6);
    const seen: StreamEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const event of convert(truncated)) seen.push(event);
      })(),
      { name: 'GatewayError', kind: 'upstream', message: 'The upstream stream ended before the answer was complete.', upstream: { providerId } },
    );
    assert.ok(seen.some((event) => event.type === 'text_delta'), 'what arrived was still streamed');
  });

  it('throws a GatewayError, not a SyntaxError, on a payload that is not JSON', async () => {
    await assert.rejects(drain(convert([messageStart, { event: 'content_block_delta', data: '{"type":"content_block_del' }])), {
      name: 'GatewayError',
      kind: 'upstream',
    });
  });

  it('ignores pings and event types it does not know', async () => {
    const events = await drain(
      convert([
        messageStart,
        sse({ type: 'ping' }),
        sse({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search' } }),
        sse({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"q":"x"}' } }),
        sse({ type: 'content_block_stop', index: 0 }),
        sse({ type: 'something_new', payload: 1 }),
        sse({ type: 'message_delta', delta: { stop_reason: 'a_future_reason' }, usage: { output_tokens: 2 } }),
        sse({ type: 'message_stop' }),
      ]),
    );
    assert.deepEqual(
      events.map((event) => event.type),
      ['start', 'finish', 'usage'],
    );
    assert.deepEqual(events[1], { type: 'finish', reason: 'stop' });
  });
});
