import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asAsync } from '../../../test/helpers/upstream-fixtures.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { convertGeminiStream } from './convert-stream.js';

// The GenerateContentResponse schema as the translation meets it: what Google adds is passed over, what it
// breaks fails the stream cleanly. The same reading serves Gemini on Vertex.

const chunk = (value: unknown): SseEvent => ({ data: JSON.stringify(value) });
const opening = chunk({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] } }], responseId: 'resp-1' });

async function convert(events: SseEvent[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of convertGeminiStream(asAsync(events), 'vertex-eu')) out.push(event);
  return out;
}

async function failure(events: SseEvent[]): Promise<{ error: GatewayError; before: StreamEvent[] }> {
  const before: StreamEvent[] = [];
  try {
    for await (const event of convertGeminiStream(asAsync(events), 'vertex-eu')) before.push(event);
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    return { error, before };
  }
  return assert.fail('the stream did not fail');
}

describe('Gemini chunks the translation reads', () => {
  it('pass over unknown fields, part kinds and finish reasons', async () => {
    const events = await convert([
      opening,
      chunk({
        candidates: [
          {
            content: { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { text: ' there', videoMetadata: {} }] },
            finishReason: 'A_NEW_REASON',
            groundingMetadata: { webSearchQueries: ['x'] },
            avgLogprobs: -0.1,
          },
        ],
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 4 }] },
        modelVersion: 'gemini-9',
        createTime: '2026-01-01T00:00:00Z',
      }),
    ]);
    assert.deepEqual(events, [
      { type: 'start', id: 'resp-1' },
      { type: 'text_delta', text: 'Hi' },
      { type: 'text_delta', text: ' there' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 4, cachedInputTokens: 0, outputTokens: 2, reasoningTokens: 0 } },
    ]);
  });

  it('fail the stream on candidates that are not an array, naming the provider and the field', async () => {
    const { error, before } = await failure([opening, chunk({ candidates: { content: { parts: [{ text: '!' }] } } })]);
    assert.equal(error.kind, 'upstream');
    assert.deepEqual(error.upstream, { providerId: 'vertex-eu' });
    assert.equal(error.message, "The upstream provider 'vertex-eu' (gemini) sent a malformed GenerateContentResponse: candidates: Invalid input: expected array, received object");
    assert.deepEqual(before, [
      { type: 'start', id: 'resp-1' },
      { type: 'text_delta', text: 'Hi' },
    ]);
  });

  it('fail the stream on usage counts that are strings, and on a function call without a name', async () => {
    const usage = await failure([opening, chunk({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: '4' } })]);
    assert.match(usage.error.message, /malformed GenerateContentResponse: usageMetadata\.promptTokenCount: Invalid input: expected number, received string$/);
    const call = await failure([chunk({ candidates: [{ content: { parts: [{ functionCall: { args: {} } }] } }] })]);
    assert.match(call.error.message, /malformed GenerateContentResponse: candidates\[0\]\.content\.parts\[0\]\.functionCall\.name: required$/);
  });
});
