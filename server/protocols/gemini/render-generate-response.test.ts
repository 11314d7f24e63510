import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMatchesSchema } from '../../../test/helpers/contract-schemas.js';
import { decodeReasoningState } from '../openai-responses/reasoning-state.js';
import { newGeminiResponseId, renderGenerateResponse, renderUsageMetadata } from './render-generate-response.js';

const ids = { model: 'test-model', responseId: 'resp-1' };

describe('renderGenerateResponse', () => {
  it('renders reasoning, text and calls as parts of one candidate, with usage', () => {
    const response = renderGenerateResponse(
      {
        content: [
          { type: 'reasoning', text: 'Hmm.', signature: 'sig-a' },
          { type: 'text', text: 'Calling.' },
          { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}', signature: 'gemini-sig' },
        ],
        finishReason: 'tool_calls',
        usage: { inputTokens: 10, cachedInputTokens: 4, outputTokens: 30, reasoningTokens: 12 },
      },
      ids,
    );
    assertMatchesSchema('GeminiGenerateContentResponse', response);
    const parts = response.candidates![0]!.content!.parts!;
    assert.equal(parts[0]!.thought, true);
    assert.equal(parts[0]!.text, 'Hmm.');
    assert.deepEqual(decodeReasoningState(parts[0]!.thoughtSignature!), { signature: 'sig-a' });
    assert.deepEqual(parts.slice(1), [{ text: 'Calling.' }, { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'gemini-sig' }]);
    assert.equal(response.candidates![0]!.finishReason, 'STOP');
    assert.deepEqual(response.usageMetadata, { promptTokenCount: 10, candidatesTokenCount: 18, totalTokenCount: 40, thoughtsTokenCount: 12, cachedContentTokenCount: 4 });
    assert.equal(response.modelVersion, 'test-model');
    assert.equal(response.responseId, 'resp-1');
  });

  it('gives an empty answer one empty text part, and maps length and filters', () => {
    const usage = { inputTokens: 1, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
    const empty = renderGenerateResponse({ content: [], finishReason: 'length', usage }, ids);
    assert.deepEqual(empty.candidates![0]!.content, { role: 'model', parts: [{ text: '' }] });
    assert.equal(empty.candidates![0]!.finishReason, 'MAX_TOKENS');
    assert.equal(renderGenerateResponse({ content: [], finishReason: 'content_filter', usage }, ids).candidates![0]!.finishReason, 'SAFETY');
  });

  it('leaves zero details out of usage', () => {
    assert.deepEqual(renderUsageMetadata({ inputTokens: 3, cachedInputTokens: 0, outputTokens: 2, reasoningTokens: 0 }), {
      promptTokenCount: 3,
      candidatesTokenCount: 2,
      totalTokenCount: 5,
    });
  });

  it('makes response IDs shaped like Gemini’s', () => {
    assert.match(newGeminiResponseId(), /^[A-Za-z0-9_-]{23}$/);
  });
});
