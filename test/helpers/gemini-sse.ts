// Gemini's stream framing as clients read it: the `alt=sse` body split into chunks, each checked against
// the contract, and the text a chunk holds.
import assert from 'node:assert/strict';
import type { components } from '../../generated/api.js';
import { assertMatchesSchema } from './contract-schemas.js';

export type GeminiChunk = components['schemas']['GeminiGenerateContentResponse'];

/**
 * Splits an `alt=sse` body into its chunks, checking Gemini's framing on the way: `data:` lines only (an
 * `event:` line makes the SDK drop a chunk), no `[DONE]` (it makes the SDK throw), a blank line after
 * every frame. Every chunk must match the contract.
 */
export function parseGeminiSse(text: string): GeminiChunk[] {
  assert.ok(text.endsWith('\n\n'), 'the stream ends with a blank line');
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const match = /^data: ([^\n]+)$/.exec(frame);
      assert.ok(match, `a frame is one data: line, got ${JSON.stringify(frame.slice(0, 200))}`);
      const chunk = JSON.parse(match[1]!) as GeminiChunk;
      assertMatchesSchema('GeminiGenerateContentResponse', chunk);
      return chunk;
    });
}

/** The text a chunk holds, thoughts left out (what `response.text` gives in the SDK). */
export const chunkText = (chunk: GeminiChunk) =>
  (chunk.candidates?.[0]?.content?.parts ?? [])
    .filter((part) => part.thought !== true)
    .map((part) => part.text ?? '')
    .join('');
