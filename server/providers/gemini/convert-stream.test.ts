import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamEvent } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { asAsync, fixtureSseEvents } from '../../../test/helpers/upstream-fixtures.js';
import { convertGeminiStream } from './convert-stream.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';

async function convert(events: SseEvent[]): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of convertGeminiStream(asAsync(events), 'google')) collected.push(event);
  return collected;
}

/** Runs a stream to its end and returns the error it threw, with the events that came before. */
async function failure(events: SseEvent[]): Promise<{ error: GatewayError; before: StreamEvent[] }> {
  const before: StreamEvent[] = [];
  try {
    for await (const event of convertGeminiStream(asAsync(events), 'google')) before.push(event);
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    return { error, before };
  }
  return assert.fail('the stream did not fail');
}

const chunk = (value: unknown): SseEvent => ({ data: JSON.stringify(value) });
const modelParts = (parts: unknown[], extra: Record<string, unknown> = {}) => ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }] });

describe('convertGeminiStream', () => {
  it('replays the recorded text stream: text joined, finish stop, usage with thoughts', async () => {
    const events = await convert(fixtureSseEvents('gemini/stream-text.chunks.txt', 'gemini'));
    assert.deepEqual(events[0], { type: 'start', id: 'bH6LaZW8Fp_3nsEPqtaSwQ4' });
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');
    assert.equal(text, 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    // The final empty text part with a thoughtSignature produces nothing.
    assert.deepEqual(
      events.map((event) => event.type),
      ['start', 'text_delta', 'text_delta', 'finish', 'usage'],
    );
    assert.deepEqual(events.at(-2), { type: 'finish', reason: 'stop' });
    assert.deepEqual(events.at(-1), { type: 'usage', usage: { inputTokens: 9, cachedInputTokens: 0, outputTokens: 23 + 185, reasoningTokens: 185 } });
  });

  it('replays the recorded function call: whole call with its signature, finish tool_calls', async () => {
    const events = await convert(fixtureSseEvents('gemini/stream-function-call.chunks.txt', 'gemini'));
    assert.deepEqual(events[0], { type: 'start', id: 'b36LacjwM668nsEP2tbsgQQ' });
    const start = events[1];
    assert.ok(start?.type === 'tool_call_start');
    assert.equal(start.index, 0);
    assert.equal(start.name, 'weather');
    assert.match(start.id, /^call_[0-9a-f]{24}$/);
    assert.match(start.signature ?? '', /^EqUCCqICAb4\+9vsh8Pd5/);
    assert.deepEqual(events.slice(2), [
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"location":"San Francisco"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage: { inputTokens: 29, cachedInputTokens: 0, outputTokens: 15 + 45, reasoningTokens: 45 } },
    ]);
  });

  it('numbers parallel calls from 0, keeps Gemini call IDs and sends {} for missing args', async () => {
    const events = await convert([
      chunk(modelParts([{ functionCall: { id: 'fc-1', name: 'a', args: { x: 1 } }, thoughtSignature: 'sig' }, { functionCall: { name: 'b' } }])),
      chunk(modelParts([{ text: '' }], { finishReason: 'STOP' })),
    ]);
    const calls = events.filter((event) => event.type === 'tool_call_start' || event.type === 'tool_call_delta');
    assert.deepEqual(calls[0], { type: 'tool_call_start', index: 0, id: 'fc-1', name: 'a', signature: 'sig' });
    assert.deepEqual(calls[1], { type: 'tool_call_delta', index: 0, argumentsDelta: '{"x":1}' });
    assert.ok(calls[2]?.type === 'tool_call_start' && calls[2].index === 1 && calls[2].signature === undefined && !('signature' in calls[2]));
    assert.deepEqual(calls[3], { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' });
  });

  it('turns thought parts into reasoning deltas with their signatures, and ignores image output', async () => {
    const events = await convert([
      chunk(modelParts([{ text: 'Counting letters', thought: true }])),
      chunk(modelParts([{ text: '', thought: true, thoughtSignature: 'thought-sig' }, { text: 'Three.' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }])),
      chunk({ ...modelParts([{ text: '' }], { finishReason: 'MAX_TOKENS' }), usageMetadata: { promptTokenCount: 5, cachedContentTokenCount: 2, toolUsePromptTokenCount: 3, candidatesTokenCount: 4 } }),
    ]);
    assert.deepEqual(events, [
      { type: 'start' },
      { type: 'reasoning_delta', text: 'Counting letters' },
      { type: 'reasoning_delta', text: '', signature: 'thought-sig' },
      { type: 'text_delta', text: 'Three.' },
      { type: 'finish', reason: 'length' },
      { type: 'usage', usage: { inputTokens: 8, cachedInputTokens: 2, outputTokens: 4, reasoningTokens: 0 } },
    ]);
  });

  it('ends a prompt blocked by promptFeedback as content_filter', async () => {
    const events = await convert([chunk({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 }, responseId: 'r1' })]);
    assert.deepEqual(events, [
      { type: 'start', id: 'r1' },
      { type: 'finish', reason: 'content_filter' },
      { type: 'usage', usage: { inputTokens: 7, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 } },
    ]);
  });

  it('throws an error chunk as a GatewayError keeping the upstream message and status', async () => {
    const { error, before } = await failure([chunk({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } })]);
    assert.deepEqual(before, []);
    assert.equal(error.kind, 'rate_limited');
    assert.equal(error.message, 'Resource has been exhausted (e.g. check quota).');
    assert.deepEqual(error.upstream, { providerId: 'google', status: 429, retryAfterMs: undefined });

    const midway = await failure([chunk(modelParts([{ text: 'Hel' }])), chunk({ error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } })]);
    assert.deepEqual(
      midway.before.map((event) => event.type),
      ['start', 'text_delta'],
    );
    assert.equal(midway.error.kind, 'upstream');
    assert.match(midway.error.message, /Internal error encountered\./);
    assert.equal(midway.error.upstream?.status, 500);
  });

  it('throws when the stream ends before any finishReason', async () => {
    const truncated = fixtureSseEvents('gemini/stream-text.chunks.txt', 'gemini').slice(0, 2);
    const { error, before } = await failure(truncated);
    assert.equal(before.filter((event) => event.type === 'text_delta').length, 2);
    assert.ok(!before.some((event) => event.type === 'finish'));
    assert.equal(error.kind, 'upstream');
    assert.equal(error.message, 'The upstream stream ended before the answer was complete.');
    assert.deepEqual(error.upstream, { providerId: 'google' });
    assert.equal((await failure([])).error.kind, 'upstream');
  });

  it('reports an event that is not JSON as an upstream error, never a SyntaxError', async () => {
    const { error, before } = await failure([{ data: '{"candidates":[' }]);
    assert.deepEqual(before, []);
    assert.equal(error.kind, 'upstream');
    assert.deepEqual(error.upstream, { providerId: 'google' });
  });
});

describe('mapGeminiFinishReason', () => {
  it('follows the documented reasons', () => {
    assert.equal(mapGeminiFinishReason('STOP', false), 'stop');
    assert.equal(mapGeminiFinishReason('STOP', true), 'tool_calls');
    assert.equal(mapGeminiFinishReason('MAX_TOKENS', false), 'length');
    for (const reason of ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']) {
      assert.equal(mapGeminiFinishReason(reason, false), 'content_filter');
    }
    assert.equal(mapGeminiFinishReason('MALFORMED_FUNCTION_CALL', false), 'stop');
    assert.equal(mapGeminiFinishReason('UNEXPECTED_TOOL_CALL', false), 'stop');
    assert.equal(mapGeminiFinishReason('SOMETHING_NEW', false), 'stop');
  });
});
