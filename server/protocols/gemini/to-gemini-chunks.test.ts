import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMatchesSchema } from '../../../test/helpers/contract-schemas.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import { asAsync } from '../../../test/helpers/upstream-fixtures.js';
import { toGeminiChunks } from './to-gemini-chunks.js';

const ids = { model: 'test-model', responseId: 'r1' };

async function chunksOf(events: StreamEvent[]) {
  const chunks = [];
  for await (const chunk of toGeminiChunks(asAsync(events), ids)) {
    assertMatchesSchema('GeminiGenerateContentResponse', chunk);
    chunks.push(chunk);
  }
  return chunks;
}

describe('toGeminiChunks', () => {
  it('streams text deltas, then one finish chunk with usage', async () => {
    const chunks = await chunksOf([
      { type: 'start', id: 'x' },
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: '' },
      { type: 'text_delta', text: 'lo' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 5, cachedInputTokens: 0, outputTokens: 2, reasoningTokens: 0 } },
    ]);
    assert.deepEqual(
      chunks.map((chunk) => chunk.candidates![0]!.content!.parts),
      [[{ text: 'Hel' }], [{ text: 'lo' }], [{ text: '' }]],
    );
    assert.equal(chunks.at(-1)!.candidates![0]!.finishReason, 'STOP');
    assert.deepEqual(chunks.at(-1)!.usageMetadata, { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 });
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usageMetadata === undefined && chunk.candidates![0]!.finishReason === undefined));
    assert.ok(chunks.every((chunk) => chunk.responseId === 'r1' && chunk.modelVersion === 'test-model' && chunk.candidates![0]!.content!.role === 'model'));
  });

  it('holds a call until it ends and sends it whole, with its signature', async () => {
    const chunks = await chunksOf([
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'weather', signature: 'sig' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    assert.deepEqual(chunks[0]!.candidates![0]!.content!.parts, [{ functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' }]);
    assert.equal(chunks.length, 2);
    assert.equal(chunks[1]!.candidates![0]!.finishReason, 'STOP');
  });

  it('streams reasoning as thought parts, a bare signature included', async () => {
    const chunks = await chunksOf([
      { type: 'reasoning_delta', text: 'Thinking' },
      { type: 'reasoning_delta', text: '', signature: 'abc' },
      { type: 'reasoning_delta', text: '' },
      { type: 'text_delta', text: 'Done' },
      { type: 'finish', reason: 'length' },
    ]);
    const parts = chunks.map((chunk) => chunk.candidates![0]!.content!.parts![0]!);
    assert.deepEqual(parts[0], { text: 'Thinking', thought: true });
    assert.equal(parts[1]!.thought, true);
    assert.match(parts[1]!.thoughtSignature!, /^ugw1\./);
    assert.deepEqual(parts[2], { text: 'Done' });
    assert.equal(chunks.at(-1)!.candidates![0]!.finishReason, 'MAX_TOKENS');
  });
});
