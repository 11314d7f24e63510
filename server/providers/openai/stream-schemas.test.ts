import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asAsync } from '../../../test/helpers/upstream-fixtures.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { convertStream } from './convert-stream.js';

// The chunk schema as the translation meets it: what an upstream adds is passed over, what it breaks fails
// the stream cleanly.

const sse = (value: unknown): SseEvent => ({ data: JSON.stringify(value) });
const opening = sse({ id: 'chatcmpl-1', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] });
const done = { data: '[DONE]' };

async function convert(events: SseEvent[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of convertStream(asAsync(events), 'compat')) out.push(event);
  return out;
}

async function failure(events: SseEvent[]): Promise<{ error: GatewayError; before: StreamEvent[] }> {
  const before: StreamEvent[] = [];
  try {
    for await (const event of convertStream(asAsync(events), 'compat')) before.push(event);
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    return { error, before };
  }
  return assert.fail('the stream did not fail');
}

describe('Chat Completions chunks the translation reads', () => {
  it('pass over fields, finish reasons and tool call kinds no schema names', async () => {
    const events = await convert([
      opening,
      sse({
        id: 'chatcmpl-1',
        obfuscation: 'xyz',
        choices: [
          {
            index: 0,
            logprobs: { content: [] },
            delta: { content: ' there', audio: { id: 'a' }, tool_calls: [{ index: 0, type: 'custom', id: 'call_1', function: { name: 'f', arguments: '{}' }, custom: {} }] },
            finish_reason: 'eos_token',
          },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, prompt_tokens_details: { cached_tokens: 1, audio_tokens: 0 } },
      }),
      done,
    ]);
    assert.deepEqual(events, [
      { type: 'start', id: 'chatcmpl-1' },
      { type: 'text_delta', text: 'Hi' },
      { type: 'text_delta', text: ' there' },
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 3, cachedInputTokens: 1, outputTokens: 2, reasoningTokens: 0 } },
    ]);
  });

  it("read Mistral's content parts: thinking as reasoning, text as text, other parts passed over", async () => {
    const parts = (content: unknown[], finish: string | null = null) => sse({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] });
    const events = await convert([
      parts([{ type: 'thinking', thinking: [{ type: 'text', text: 'A greeting' }, { type: 'reference', id: 1 }] }]),
      parts([{ type: 'text', text: 'Hello' }, { type: 'image_url', image_url: 'x' }], 'stop'),
      done,
    ]);
    assert.deepEqual(events, [
      { type: 'start' },
      { type: 'reasoning_delta', text: 'A greeting' },
      { type: 'text_delta', text: 'Hello' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('fail the stream on choices that are not an array, naming the provider and the field', async () => {
    const { error, before } = await failure([opening, sse({ id: 'chatcmpl-1', choices: { index: 0, delta: { content: '!' } } }), done]);
    assert.equal(error.kind, 'upstream');
    assert.deepEqual(error.upstream, { providerId: 'compat' });
    assert.equal(error.message, "The upstream provider 'compat' (openai) sent a malformed chunk: choices: Invalid input: expected array, received object");
    assert.deepEqual(before, [
      { type: 'start', id: 'chatcmpl-1' },
      { type: 'text_delta', text: 'Hi' },
    ]);
  });

  it('fail the stream on usage counts that are strings, content that is neither text nor parts, and a delta that is not an object', async () => {
    const usage = await failure([opening, sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: '3', completion_tokens: 2 } }), done]);
    assert.match(usage.error.message, /\(openai\) sent a malformed chunk: usage\.prompt_tokens: Invalid input: expected number, received string$/);
    const content = await failure([sse({ choices: [{ index: 0, delta: { content: 42 } }] })]);
    assert.match(content.error.message, /malformed chunk: choices\[0\]\.delta\.content: Invalid input: expected string or array, received number$/);
    const delta = await failure([sse({ choices: [{ index: 0, delta: 'Hi' }] })]);
    assert.match(delta.error.message, /malformed chunk: choices\[0\]\.delta: Invalid input: expected object, received string$/);
    assert.deepEqual(delta.before, [], 'nothing came out of the chunk before it was refused');
  });
});
