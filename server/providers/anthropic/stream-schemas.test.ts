import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asAsync } from '../../../test/helpers/upstream-fixtures.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { convertAnthropicStream } from './convert-stream.js';

// The event schemas as the translation meets them: what Anthropic adds is passed over, what it breaks fails
// the stream cleanly.

const sse = (data: Record<string, unknown>): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });
const messageStart = sse({ type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 5, output_tokens: 1, service_tier: 'standard' } } });
const textStart = sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } });
const textDelta = (text: string) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

async function convert(events: SseEvent[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of convertAnthropicStream(asAsync(events), { providerId: 'claude' })) out.push(event);
  return out;
}

async function failure(events: SseEvent[]): Promise<{ error: GatewayError; before: StreamEvent[] }> {
  const before: StreamEvent[] = [];
  try {
    for await (const event of convertAnthropicStream(asAsync(events), { providerId: 'claude' })) before.push(event);
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    return { error, before };
  }
  return assert.fail('the stream did not fail');
}

describe('Anthropic stream events the translation reads', () => {
  it('pass over unknown fields, block types, delta types and events, and read the named ones around them', async () => {
    const events = await convert([
      messageStart,
      textStart,
      textDelta('Hi'),
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location', url: 'https://x' } } }),
      sse({ type: 'content_block_stop', index: 0 }),
      sse({ type: 'content_block_start', index: 1, content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result' }] } }),
      sse({ type: 'content_block_stop', index: 1 }),
      sse({ type: 'content_block_start', index: 2, content_block: { type: 'text', text: ' there', citations: [] } }),
      sse({ type: 'content_block_stop', index: 2 }),
      sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null, container: null }, usage: { output_tokens: 4, server_tool_use: { web_search_requests: 1 } } }),
      sse({ type: 'a_new_kind_of_event', anything: [1, 'two'] }),
      sse({ type: 'message_stop', amazon_bedrock_invocation_metrics: {} }),
    ]);
    assert.deepEqual(events, [
      { type: 'start', id: 'msg_1' },
      { type: 'text_delta', text: 'Hi' },
      { type: 'text_delta', text: ' there' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 5, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 4, reasoningTokens: 0, serviceTier: 'standard' } },
    ]);
  });

  it('fail the stream on a content_block_delta without its delta, naming the provider and the field', async () => {
    const { error, before } = await failure([messageStart, textStart, textDelta('Hi'), sse({ type: 'content_block_delta', index: 0 })]);
    assert.equal(error.kind, 'upstream');
    assert.deepEqual(error.upstream, { providerId: 'claude' });
    assert.equal(error.message, "The upstream provider 'claude' (anthropic) sent a malformed content_block_delta event: delta: required");
    assert.deepEqual(before, [
      { type: 'start', id: 'msg_1' },
      { type: 'text_delta', text: 'Hi' },
    ]);
  });

  it('fail the stream on a known block or delta type without its content, and on usage counts that are strings', async () => {
    const delta = await failure([messageStart, textStart, sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 7 } })]);
    assert.match(delta.error.message, /malformed content_block_delta event: delta\.text: Invalid input: expected string, received number$/);
    const block = await failure([messageStart, sse({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', input: {} } })]);
    assert.match(block.error.message, /malformed content_block_start event: content_block\.id: required; content_block\.name: required$/);
    const usage = await failure([messageStart, sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: '4' } })]);
    assert.match(usage.error.message, /malformed message_delta event: usage\.output_tokens: Invalid input: expected number, received string$/);
  });

  it('take the event name from the event: line when the payload has no type', async () => {
    const { error } = await failure([messageStart, { event: 'content_block_start', data: JSON.stringify({ index: 0 }) }]);
    assert.match(error.message, /malformed content_block_start event: content_block: required$/);
  });
});
